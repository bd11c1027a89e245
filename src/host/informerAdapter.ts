import type { KubeObject } from '../shared/k8s.ts';
import type { SharedIndexInformer, HandlerRegistration } from '../informer/index.ts';
import type { KindRef } from '../controllerProtocol/index.ts';
import type { InformerEvent, KindInformer } from './engine/ports.ts';

// Binds one shared informer to the loop's KindInformer port. A single handler registration fans out
// to every listener, so all of them receive the same object references for one event (the loop
// forwards each event to the parent once by identity).

export class SharedInformerAdapter implements KindInformer {
  readonly kind: KindRef;
  readonly resource: string;
  private readonly informer: SharedIndexInformer;
  private readonly listeners: ((e: InformerEvent) => void)[] = [];
  private registration: HandlerRegistration | undefined;

  constructor(kind: KindRef, informer: SharedIndexInformer, resource: string) {
    this.kind = kind;
    this.resource = resource;
    this.informer = informer;
  }

  onEvent(handler: (e: InformerEvent) => void): void {
    this.listeners.push(handler);
  }

  start(): void {
    const emit = (e: InformerEvent) => {
      for (const l of this.listeners) l(e);
    };
    this.registration = this.informer.addEventHandler(
      {
        onAdd: (obj) => emit({ type: 'ADDED', object: obj as KubeObject }),
        onUpdate: (old, obj) => emit({ type: 'MODIFIED', object: obj as KubeObject, old: old as KubeObject }),
        onDelete: (obj) => emit({ type: 'DELETED', object: obj as KubeObject }),
      },
      { name: 'controller' },
    );
    this.informer.run();
  }

  stop(): void {
    this.registration?.remove();
    this.informer.stop();
  }

  hasSynced(): boolean {
    return this.informer.hasSynced() && (this.registration?.hasSynced() ?? false);
  }

  get(key: string): KubeObject | undefined {
    return this.informer.indexer.get(key) as KubeObject | undefined;
  }

  list(namespace?: string): KubeObject[] {
    const all = namespace ? this.informer.indexer.byIndex('namespace', namespace) : this.informer.indexer.list();
    return all as KubeObject[];
  }
}

import type { KubeObject } from '../shared/k8s.ts';
import type { DeepReadonly } from './readonly.ts';
import { createSharedInformer } from './sharedInformer.ts';
import type { SharedIndexInformer, SharedInformerOptions } from './sharedInformer.ts';
import { NAMESPACE_INDEX } from './store.ts';

// The shape @kubernetes/client-node users know (`on('add', …)`, `start()`, `get`, `list`), on top
// of the client-go-faithful shared informer. Differences from client-node, on purpose: errors are
// reported and retried internally (the informer does not stop on 'error'), `start()` resolves when
// the cache is synced, and `stop()` is final and immediate.

export type ObjectCallback<T extends KubeObject> = (obj: DeepReadonly<T>, old?: DeepReadonly<T>) => void;
export type ErrorCallback = (err: unknown) => void;
export type ConnectCallback = () => void;

export type InformerEvent = 'add' | 'update' | 'delete' | 'change' | 'error' | 'connect';

export class Informer<T extends KubeObject = KubeObject> {
  /** The client-go-shaped informer underneath: handlers, indexes, probes, stats. */
  readonly shared: SharedIndexInformer<T>;
  private readonly callbacks = {
    add: [] as ObjectCallback<T>[],
    update: [] as ObjectCallback<T>[],
    delete: [] as ObjectCallback<T>[],
    change: [] as ObjectCallback<T>[],
    error: [] as ErrorCallback[],
    connect: [] as ConnectCallback[],
  };

  constructor(options: SharedInformerOptions<T>) {
    this.shared = createSharedInformer(options);
    const fire = (list: ObjectCallback<T>[], obj: DeepReadonly<T>, old?: DeepReadonly<T>): void => {
      for (const cb of list) cb(obj, old);
      for (const cb of this.callbacks.change) cb(obj, old);
    };
    this.shared.addEventHandler(
      {
        onAdd: (obj) => fire(this.callbacks.add, obj),
        onUpdate: (old, obj) => fire(this.callbacks.update, obj, old),
        onDelete: (obj) => fire(this.callbacks.delete, obj),
      },
      { name: 'informer' },
    );
    this.shared.onError((err) => {
      for (const cb of this.callbacks.error) cb(err);
    });
    this.shared.onConnect(() => {
      for (const cb of this.callbacks.connect) cb();
    });
  }

  /** 'update' and 'change' callbacks get the previous object as a second argument when there is one. */
  on(event: 'add' | 'update' | 'delete' | 'change', cb: ObjectCallback<T>): void;
  on(event: 'error', cb: ErrorCallback): void;
  on(event: 'connect', cb: ConnectCallback): void;
  on(event: InformerEvent, cb: ObjectCallback<T> | ErrorCallback | ConnectCallback): void {
    (this.callbacks[event] as unknown[]).push(cb);
  }

  off(event: InformerEvent, cb: ObjectCallback<T> | ErrorCallback | ConnectCallback): void {
    const list = this.callbacks[event] as unknown[];
    const i = list.indexOf(cb);
    if (i >= 0) list.splice(i, 1);
  }

  /** Starts listing and watching; resolves once the cache is synced (or at once if stopped first). */
  async start(): Promise<void> {
    this.shared.run();
    await this.shared.waitForSync();
  }

  stop(): void {
    this.shared.stop();
  }

  get(name: string, namespace?: string): DeepReadonly<T> | undefined {
    return this.shared.indexer.get(namespace ? `${namespace}/${name}` : name);
  }

  /** Every cached object, or those of one namespace. */
  list(namespace?: string): DeepReadonly<T>[] {
    return namespace === undefined ? this.shared.indexer.list() : this.shared.indexer.byIndex(NAMESPACE_INDEX, namespace);
  }

  hasSynced(): boolean {
    return this.shared.hasSynced();
  }

  latestResourceVersion(): string {
    return this.shared.lastSyncResourceVersion();
  }
}

export function createInformer<T extends KubeObject = KubeObject>(options: SharedInformerOptions<T>): Informer<T> {
  return new Informer<T>(options);
}

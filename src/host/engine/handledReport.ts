import { HandlerView, type HandledResource, type HostMessage } from '../../controllerProtocol/index.ts';
import { objectKey } from '../../shared/keys.ts';
import type { KindInformer } from './ports.ts';

// The `handled` report (see controllerProtocol/handledViews.ts): per informer, what its
// registrations have been given. Tracking is the informer's last listener, so an event counts
// once every source has mapped it to keys and enqueued them; the queue's state goes out first.

export class HandledReport {
  private readonly views: { resource: string; view: HandlerView }[] = [];
  private scheduled = false;
  private readonly send: (m: HostMessage) => void;
  private readonly flushQueue: () => void;

  constructor(send: (m: HostMessage) => void, flushQueue: () => void) {
    this.send = send;
    this.flushQueue = flushQueue;
  }

  /** Call after the informer's sources registered theirs. An informer that names no resource is not reported. */
  track(inf: KindInformer): void {
    if (!inf.resource) return;
    const view = new HandlerView();
    this.views.push({ resource: inf.resource, view });
    inf.onEvent((e) => {
      view.given(objectKey(e.object), e.object.metadata.resourceVersion ?? '', e.type === 'DELETED');
      this.schedule();
    });
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.flushQueue();
      const byResource = new Map<string, HandledResource>();
      for (const { resource, view } of this.views) {
        const r = byResource.get(resource) ?? { resource, views: [] };
        r.views.push(view.view());
        byResource.set(resource, r);
      }
      this.send({ type: 'handled', resources: [...byResource.values()] });
    });
  }
}

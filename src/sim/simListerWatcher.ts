import type { GroupVersionResource, KubeList, KubeObject } from '../shared/k8s.ts';
import type { ListOptions, ListerWatcher, WatchHandle, WatchOptions, WatchSink } from '../informer/index.ts';
import type { SimObjects } from './simObjects.ts';
import type { RequestContext } from './store/types.ts';
import { mutableCopy } from './store/storedObject.ts';

// The informer's ListerWatcher served in process by the simulated cluster: no HTTP, same
// semantics (the same list/watch code paths the HTTP server uses). Each object handed out is the
// informer's own copy, as if decoded from the wire, so a transform may change it; `shareFrozen`
// hands out the store's frozen objects instead (faster, for consumers that never mutate).

export class SimListerWatcher<T extends KubeObject = KubeObject> implements ListerWatcher<T> {
  private readonly cluster: SimObjects;
  private readonly gvr: GroupVersionResource;
  private readonly namespace: string | undefined;
  private readonly ctx: RequestContext;
  private readonly handOut: (obj: Readonly<KubeObject>) => T;

  constructor(cluster: SimObjects, gvr: GroupVersionResource, namespace?: string, ctx?: RequestContext, options: { shareFrozen?: boolean } = {}) {
    this.handOut = options.shareFrozen ? (o) => o as T : (o) => mutableCopy(o) as T;
    this.cluster = cluster;
    this.gvr = gvr;
    this.namespace = namespace;
    this.ctx = ctx ?? { client: { userAgent: 'in-process informer', tokenId: '' } };
  }

  async list(options: ListOptions, signal?: AbortSignal): Promise<KubeList<T>> {
    signal?.throwIfAborted();
    const r = this.cluster.list(this.gvr, { ...options, namespace: this.namespace }, this.ctx);
    const metadata: KubeList['metadata'] = { resourceVersion: String(r.resourceVersion) };
    if (r.continue) metadata.continue = r.continue;
    if (r.remainingItemCount !== undefined) metadata.remainingItemCount = r.remainingItemCount;
    return { apiVersion: r.apiVersion, kind: r.kind, metadata, items: r.items.map((i) => this.handOut(i.object)) };
  }

  async watch(options: WatchOptions, sink: WatchSink<T>, signal?: AbortSignal): Promise<WatchHandle> {
    signal?.throwIfAborted();
    const handle = this.cluster.watch(this.gvr, { ...options, namespace: this.namespace }, {
      event: (e) => sink.event({ type: e.type, object: this.handOut(e.object) }),
      close: () => sink.close(),
    }, this.ctx);
    signal?.addEventListener('abort', () => handle.stop(), { once: true });
    return { stop: () => handle.stop() };
  }
}

import type { ListerWatcher, ListOptions, TextTransform, WatchHandle, WatchOptions, WatchSink } from '../../src/informer/index.ts';
import { ApiError } from '../../src/shared/apiError.ts';
import type { KubeObject } from '../../src/shared/k8s.ts';

// A network cable between the informer and the real HTTP ListerWatcher that a test can pull out:
// `unplug` cuts the open watch (the informer sees its connection fail, as on a partition) and holds
// every request made after it until `plugIn`; it can also hold a paged list between its pages.
// Nothing is made up but one answer: `refuseNextListAtVersion` answers the next list at a version
// 410, as kube-apiserver without its watch cache does once etcd has compacted that version (with
// the cache, a list at a version is served with anything as new or newer). Everything else the
// informer gets is what the server answers, only later.

export class UnpluggableListerWatcher<T extends KubeObject = KubeObject> implements ListerWatcher<T> {
  private readonly inner: ListerWatcher<T>;
  private open: { handle: WatchHandle; sink: WatchSink<T> } | undefined;
  private plugged = true;
  private waiting: (() => void)[] = [];
  private holdingPages = false;
  private refusingListAtVersion = false;
  private waitingPages: (() => void)[] = [];
  /** Requests the informer made while unplugged. */
  heldRequests = 0;
  /** Next-page requests held by holdNextPages. */
  heldPages = 0;

  constructor(inner: ListerWatcher<T>) {
    this.inner = inner;
  }

  unplug(): void {
    this.plugged = false;
    const open = this.open;
    this.open = undefined;
    if (!open) return;
    // Stop first: no event of the cut stream reaches the informer after it is told of the cut.
    open.handle.stop();
    open.sink.close(new Error('connection cut by the test (cable unplugged)'));
  }

  plugIn(): void {
    this.plugged = true;
    for (const wake of this.waiting.splice(0)) wake();
  }

  refuseNextListAtVersion(): void {
    this.refusingListAtVersion = true;
  }

  /** Holds every request for a list's next page (a `continue`) until `releaseNextPages`; first pages pass. */
  holdNextPages(): void {
    this.holdingPages = true;
  }

  releaseNextPages(): void {
    this.holdingPages = false;
    for (const wake of this.waitingPages.splice(0)) wake();
  }

  async list(options: ListOptions, signal?: AbortSignal, prepareItem?: (item: T) => T, prepareText?: TextTransform): ReturnType<ListerWatcher<T>['list']> {
    await this.connected(signal);
    const rv = options.resourceVersion;
    if (this.refusingListAtVersion && !options.continue && rv !== undefined && rv !== '' && rv !== '0') {
      this.refusingListAtVersion = false;
      throw ApiError.fromStatus({
        apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 410, reason: 'Expired',
        message: `The resourceVersion for the provided list is too old.`,
      });
    }
    if (options.continue && this.holdingPages) {
      this.heldPages++;
      await new Promise<void>((resolve) => this.waitingPages.push(resolve));
    }
    return this.inner.list(options, signal, prepareItem, prepareText);
  }

  async watch(options: WatchOptions, sink: WatchSink<T>, signal?: AbortSignal, prepareText?: TextTransform): Promise<WatchHandle> {
    await this.connected(signal);
    let closed = false;
    const tracked: WatchSink<T> = {
      event: (e) => sink.event(e),
      close: (error) => {
        closed = true;
        if (this.open?.sink === tracked) this.open = undefined;
        sink.close(error);
      },
    };
    const handle = await this.inner.watch(options, tracked, signal, prepareText);
    if (!this.plugged && !closed) {
      // Unplugged while the server was accepting it: cut at once.
      handle.stop();
      queueMicrotask(() => sink.close(new Error('connection cut by the test (cable unplugged)')));
    } else if (!closed) this.open = { handle, sink: tracked };
    return {
      stop: () => {
        if (this.open?.handle === handle) this.open = undefined;
        handle.stop();
      },
    };
  }

  private connected(signal?: AbortSignal): Promise<void> {
    if (this.plugged) return Promise.resolve();
    this.heldRequests++;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }
}

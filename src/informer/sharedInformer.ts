import { realClock } from '../shared/clock.ts';
import type { Clock } from '../shared/clock.ts';
import type { KubeObject } from '../shared/k8s.ts';
import { createDeltaFifo, DeletedFinalStateUnknown } from './deltaFifo.ts';
import type { Delta, DeltaFifo } from './deltaFifo.ts';
import { HandlerBuffer, Notification } from './handlerBuffer.ts';
import type { NotificationCode, ResourceEventHandler } from './handlerBuffer.ts';
import type { ListerWatcher } from './listerWatcher.ts';
import { ProbeBus } from './probeBus.ts';
import type { Probe, ProbeListener } from './probes.ts';
import type { DeepReadonly } from './readonly.ts';
import { Reflector } from './reflector.ts';
import type { ReflectorStats } from './reflector.ts';
import { createIndexer } from './store.ts';
import type { Indexer, Indexers, ReadonlyIndexer } from './store.ts';

// client-go shared_informer.go: one reflector and one cache shared by many handlers. Deltas popped
// from the DeltaFIFO update the cache first, then go to every handler's own buffer. The informer is
// the FIFO's waiting consumer, so a delta is processed as it arrives (as client-go's processLoop,
// blocked in Pop, would take it), and a handler that keeps up is called at once.

export interface SharedInformerOptions<T extends KubeObject = KubeObject> {
  /** Shown in probes and views: e.g. `configmaps` or `deployments.apps@default`. */
  name: string;
  listerWatcher: ListerWatcher<T>;
  clock?: Clock;
  /** > 0: every handler gets `onUpdate(obj, obj)` for every cached object this often. Default 0. */
  resyncPeriodMs?: number;
  /** Applied to each object from the server before it is cached (e.g. drop managedFields). */
  transform?: (obj: T) => T;
  /** User indexes besides the built-in `namespace` index. */
  indexers?: Indexers<T>;
  /** Items per list page; default 500; 0 = unpaged. */
  pageSize?: number;
  /** Process a list's objects at most this long (ms) at a time, yielding the event loop between (DeltaFifoOptions.sliceMs). */
  sliceMs?: number;
  labelSelector?: string;
  fieldSelector?: string;
  /** Start with a streaming list (watch with sendInitialEvents), falling back to a paged list. */
  useWatchList?: boolean;
  /** A streaming list that stays silent this long before its end bookmark falls back. Default 30 s. */
  watchListIdleTimeoutMs?: number;
  /** A watch that delivers nothing, not even a bookmark, this long is resumed afresh. Default 2 min; 0 = never. */
  watchIdleTimeoutMs?: number;
  /** Jitter source for backoff and watch timeouts (seed it in tests). Default Math.random. */
  random?: () => number;
}

export interface HandlerOptions {
  /** Shown in probes and stats. Default `handler-N`. */
  name?: string;
}

export interface HandlerRegistration {
  readonly name: string;
  /** Stops delivery to this handler; anything still buffered is dropped. */
  remove(): void;
  /** The informer synced and this handler has processed every notification up to that point. */
  hasSynced(): boolean;
  /** Notifications buffered for this handler, not yet processed. */
  queued(): number;
}

export interface HandlerStats {
  name: string;
  queued: number;
  delivered: number;
  errors: number;
}

export interface InformerStats extends ReflectorStats {
  /** Deltas popped from the DeltaFIFO. */
  deltas: number;
  /** Handler errors (also counted in `errors`). */
  handlerErrors: number;
  /** Keys waiting in the DeltaFIFO. */
  fifoDepth: number;
  cached: number;
  handlers: HandlerStats[];
}

export type InformerErrorListener = (err: unknown, context: { handler?: string }) => void;

/** The informer as consumers see it (client-go SharedIndexInformer). */
export interface SharedIndexInformer<T extends KubeObject = KubeObject> {
  readonly name: string;
  /** The cache. Read-only: only the informer writes to it. */
  readonly indexer: ReadonlyIndexer<T>;
  /** Registers a handler; if the informer already has objects, the handler gets them as adds first. */
  addEventHandler(handler: ResourceEventHandler<T>, options?: HandlerOptions): HandlerRegistration;
  /** Adds indexes (existing objects are indexed at once). */
  addIndexers(indexers: Indexers<T>): void;
  /** Starts listing and watching in the background. */
  run(): void;
  /** Final and immediate: after it returns no handler is called and no probe is emitted. */
  stop(): void;
  isStopped(): boolean;
  /** The first list has been fully processed into the cache. */
  hasSynced(): boolean;
  /** Resolves true once synced (and handlers given their notifications), false if stopped first. */
  waitForSync(): Promise<boolean>;
  lastSyncResourceVersion(): string;
  onProbe(listener: ProbeListener): () => void;
  /** Errors: list/watch failures (retried internally), malformed server data, handler errors. */
  onError(listener: InformerErrorListener): () => void;
  /** A watch was accepted by the server (after each (re)connect). */
  onConnect(listener: () => void): () => void;
  stats(): InformerStats;
  /** Deltas waiting in the DeltaFIFO for `key` (introspection). */
  pendingDeltas(key: string): readonly Delta<T>[];
}

function rvOf(obj: { readonly metadata: { readonly resourceVersion?: string | undefined } } | undefined): string {
  return obj?.metadata.resourceVersion ?? '';
}

const HANDLER_TYPE = ['add', 'add', 'update', 'delete', 'delete'] as const;

class SharedInformerImpl<T extends KubeObject> {
  readonly name: string;
  readonly indexer: ReadonlyIndexer<T>;
  private readonly cache: Indexer<T>;
  private readonly fifo: DeltaFifo<T>;
  private readonly reflector: Reflector<T>;
  private readonly clock: Clock;
  private readonly probes = new ProbeBus();
  private readonly resyncing: boolean;
  private buffers: HandlerBuffer<T>[] = [];
  private errorListeners: InformerErrorListener[] = [];
  private connectListeners: (() => void)[] = [];
  private syncWaiters: ((synced: boolean) => void)[] = [];
  private synced = false;
  private stopped = false;
  private handlerSeq = 0;
  private deltas = 0;
  private handlerErrors = 0;
  /** Per handler: notifications queued when it became synced; synced once that many are delivered. */
  private readonly syncTargets = new Map<HandlerBuffer<T>, number>();
  private readonly bufferHooks;

  constructor(options: SharedInformerOptions<T>) {
    this.name = options.name;
    this.clock = options.clock ?? realClock;
    this.resyncing = (options.resyncPeriodMs ?? 0) > 0;
    this.cache = createIndexer<T>(options.indexers ?? {});
    this.indexer = this.cache;
    this.fifo = createDeltaFifo<T>({
      knownObjects: this.cache,
      transform: options.transform,
      sliceMs: options.sliceMs,
      consumer: (key, deltas, isInInitialList) => this.process(key, deltas, isInInitialList),
      onSynced: (resourceVersion) => this.markSynced(resourceVersion),
      onDelta: (type, key, obj) => {
        if (!this.probes.active) return;
        const o = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
        this.emit({ kind: 'delta', type, key, resourceVersion: rvOf(o) });
      },
    });
    this.reflector = new Reflector<T>({
      name: options.name,
      listerWatcher: options.listerWatcher,
      store: this.fifo,
      clock: this.clock,
      random: options.random ?? Math.random,
      probes: this.probes,
      pageSize: options.pageSize,
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
      useWatchList: options.useWatchList,
      watchListIdleTimeoutMs: options.watchListIdleTimeoutMs,
      watchIdleTimeoutMs: options.watchIdleTimeoutMs,
      resyncPeriodMs: options.resyncPeriodMs,
      transform: options.transform,
      onError: (err) => this.reportError(err, {}),
      onConnect: () => {
        for (const l of this.connectListeners) {
          try {
            l();
          } catch (err) {
            this.reportError(err, {});
          }
        }
      },
    });
    this.bufferHooks = {
      onError: (handler: string, err: unknown) => {
        this.handlerErrors++;
        this.reportError(err, { handler });
      },
      onCall: (handler: string, code: NotificationCode, obj: DeepReadonly<KubeObject>, queued: number) => {
        if (!this.probes.active) return;
        this.emit({ kind: 'handler', handler, type: HANDLER_TYPE[code], key: keyOf(obj), resourceVersion: rvOf(obj), queued });
      },
    };
  }

  addEventHandler(handler: ResourceEventHandler<T>, options: HandlerOptions = {}): HandlerRegistration {
    const name = options.name ?? `handler-${++this.handlerSeq}`;
    const buffer = new HandlerBuffer<T>(name, handler, this.bufferHooks);
    if (!this.stopped) {
      this.buffers = [...this.buffers, buffer];
      // A late handler first sees the current state, as adds.
      for (const obj of this.cache.list()) buffer.push(this.synced ? Notification.add : Notification.addInitial, obj, undefined);
      if (this.synced) this.syncTargets.set(buffer, buffer.queuedTotal);
      buffer.pump();
    }
    return {
      name,
      remove: () => {
        buffer.remove();
        this.buffers = this.buffers.filter((b) => b !== buffer);
        this.syncTargets.delete(buffer);
      },
      hasSynced: () => {
        const target = this.syncTargets.get(buffer);
        return target !== undefined && buffer.delivered >= target;
      },
      queued: () => buffer.depth,
    };
  }

  addIndexers(indexers: Indexers<T>): void {
    this.cache.addIndexers(indexers);
  }

  run(): void {
    this.reflector.run();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.reflector.stop();
    for (const b of this.buffers) b.remove();
    for (const resolve of this.syncWaiters) resolve(false);
    this.syncWaiters = [];
    if (this.probes.active) this.emit({ kind: 'stopped' });
  }

  isStopped(): boolean {
    return this.stopped;
  }

  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion();
  }

  onProbe(listener: ProbeListener): () => void {
    return this.probes.on(listener);
  }

  onError(listener: InformerErrorListener): () => void {
    this.errorListeners = [...this.errorListeners, listener];
    return () => {
      this.errorListeners = this.errorListeners.filter((l) => l !== listener);
    };
  }

  onConnect(listener: () => void): () => void {
    this.connectListeners = [...this.connectListeners, listener];
    return () => {
      this.connectListeners = this.connectListeners.filter((l) => l !== listener);
    };
  }

  stats(): InformerStats {
    return {
      ...this.reflector.stats,
      errors: this.reflector.stats.errors + this.handlerErrors,
      deltas: this.deltas,
      handlerErrors: this.handlerErrors,
      fifoDepth: this.fifo.length,
      cached: this.cache.size,
      handlers: this.buffers.map((b) => ({ name: b.name, queued: b.depth, delivered: b.delivered, errors: b.errors })),
    };
  }

  pendingDeltas(key: string): readonly Delta<T>[] {
    return this.fifo.pending(key) ?? [];
  }

  // ---- delta processing ---------------------------------------------------------------------

  /** The first list is in the cache and every handler was given it. */
  private markSynced(resourceVersion: string): void {
    if (this.stopped || this.synced) return;
    this.synced = true;
    for (const b of this.buffers) this.syncTargets.set(b, b.queuedTotal);
    if (this.probes.active) this.emit({ kind: 'synced', resourceVersion, items: this.cache.size });
    const waiters = this.syncWaiters;
    this.syncWaiters = [];
    for (const resolve of waiters) resolve(true);
  }

  /** Applies one key's deltas to the cache, then tells every handler (client-go processDeltas). */
  private process(key: string, deltas: readonly Delta<T>[], isInInitialList: boolean): void {
    if (this.stopped) return;
    // Indexed, not for-of: an iterator per popped key shows up in the benchmark's allocations.
    for (let i = 0; i < deltas.length; i++) {
      const delta = deltas[i]!;
      this.deltas++;
      const object = delta.object;
      if (delta.type === 'Deleted') {
        const old = this.cache.delete(key);
        // Nothing to tell when the cache never had it (e.g. added and deleted within one relist).
        if (old === undefined) continue;
        if (object instanceof DeletedFinalStateUnknown) this.notify(Notification.deleteUnknown, old, undefined);
        else this.notify(Notification.delete, object, undefined);
        continue;
      }
      const obj = object as DeepReadonly<T>;
      const old = this.cache.set(key, obj, isInInitialList);
      if (old === undefined) {
        this.notify(isInInitialList ? Notification.addInitial : Notification.add, obj, undefined);
        continue;
      }
      // A resync, or a relist that found the object unchanged: only resyncing informers pass it on.
      const isSync = delta.type === 'Sync' || (delta.type === 'Replaced' && rvOf(old) === rvOf(obj));
      if (isSync && !this.resyncing) continue;
      this.notify(Notification.update, obj, old);
    }
  }

  private notify(code: NotificationCode, obj: DeepReadonly<T>, old: DeepReadonly<T> | undefined): void {
    const buffers = this.buffers;
    for (let i = 0; i < buffers.length; i++) buffers[i]!.deliver(code, obj, old);
  }

  private reportError(err: unknown, context: { handler?: string }): void {
    if (this.stopped) return;
    if (context.handler !== undefined && this.probes.active) {
      this.emit({ kind: 'error', message: `handler ${context.handler}: ${err instanceof Error ? err.message : String(err)}` });
    }
    for (const l of this.errorListeners) {
      try {
        l(err, context);
      } catch {
        // An error listener that throws must not take the informer down.
      }
    }
  }

  private emit(probe: DistributiveOmit<Probe, 'at' | 'informer'>): void {
    this.probes.emit({ ...probe, at: this.clock.now(), informer: this.name } as Probe);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function keyOf(obj: DeepReadonly<KubeObject>): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '');
}

/** A new shared index informer; call `run()` to start it. */
export function createSharedInformer<T extends KubeObject = KubeObject>(options: SharedInformerOptions<T>): SharedIndexInformer<T> {
  return new SharedInformerImpl<T>(options) satisfies SharedIndexInformer<T>;
}

/** Class form of {@link createSharedInformer}, for `new SharedInformer({...})`. */
export const SharedInformer = SharedInformerImpl as unknown as new <T extends KubeObject = KubeObject>(options: SharedInformerOptions<T>) => SharedIndexInformer<T>;
export type SharedInformer<T extends KubeObject = KubeObject> = SharedIndexInformer<T>;

import type { KubeObject } from '../shared/k8s.ts';
import { objectKey } from '../shared/keys.ts';
import type { DeltaType } from './probes.ts';
import type { DeepReadonly } from './readonly.ts';
import type { ReadonlyIndexer } from './store.ts';

// client-go delta_fifo.go: a queue of keys, where each key carries the ordered list of changes
// ("deltas") seen for it since it was last popped. A consumer pops one key at a time and gets all of
// its deltas at once, so it can process an object's history in order while keys stay independent.

export type { DeltaType };

/**
 * An object that was deleted while we were not watching: a relist no longer contains it. `obj` is
 * the last state the cache knew, which may be stale (client-go's DeletedFinalStateUnknown).
 */
export class DeletedFinalStateUnknown<T extends KubeObject = KubeObject> {
  readonly key: string;
  readonly obj: DeepReadonly<T> | undefined;

  constructor(key: string, obj: DeepReadonly<T> | undefined) {
    this.key = key;
    this.obj = obj;
  }
}

export interface Delta<T extends KubeObject = KubeObject> {
  readonly type: DeltaType;
  /** The object as of this change; a tombstone only for a `Deleted` found by `replace`. */
  readonly object: DeepReadonly<T> | DeletedFinalStateUnknown<T>;
}

/** What a reflector needs from its store (client-go ReflectorStore): the narrowest interface. */
export interface ReflectorStore<T extends KubeObject = KubeObject> {
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
  /**
   * The full state as of `resourceVersion`: queues `Replaced` for each listed object and a `Deleted`
   * tombstone for each key the cache (or the queue) knows that the list no longer has.
   */
  replace(list: readonly T[], resourceVersion: string, transformed?: boolean): void;
  /** Queues `Sync` for every cached object that has no pending deltas (periodic resync). */
  resync(): void;
}

/** Processes one popped key: its deltas, oldest first, never empty. The array and its deltas are only valid during the call (copy what you keep). */
export type PopProcessor<T extends KubeObject> = (key: string, deltas: readonly Delta<T>[], isInInitialList: boolean) => void;

export interface DeltaFifo<T extends KubeObject = KubeObject> extends ReflectorStore<T> {
  /** Pops the oldest key and hands its deltas to `process`; false when the queue is empty. */
  pop(process: PopProcessor<T>): boolean;
  /** True once a first `replace` happened and every key it queued has been popped. */
  hasSynced(): boolean;
  /** Keys waiting to be popped. */
  readonly length: number;
  /** The deltas queued for `key`, oldest first (for introspection; do not mutate). */
  pending(key: string): readonly Delta<T>[] | undefined;
}

export interface DeltaFifoOptions<T extends KubeObject> {
  /** The cache the popped deltas are applied to: used by `replace` (tombstones) and `resync`. */
  knownObjects: ReadonlyIndexer<T>;
  /** Applied to every incoming object before it is queued (never to tombstones or resyncs). */
  transform?: ((obj: T) => T) | undefined;
  /**
   * The consumer waiting on Pop (client-go's processLoop). A delta that finds the queue empty is
   * handed to it at once, as a blocked Pop would return it; deltas queued while it runs (it caused
   * them) wait their turn and are handed over, in order, as soon as it returns. Without a
   * consumer, the owner calls `pop`.
   */
  consumer?: PopProcessor<T> | undefined;
  /** Called once, when `hasSynced()` becomes true, with the resourceVersion of the first replace. */
  onSynced?: ((resourceVersion: string) => void) | undefined;
  /** Without a consumer: called when the queue goes from empty to non-empty, so the owner can schedule pops. */
  onNonEmpty?: (() => void) | undefined;
  /**
   * With a consumer: hand deltas over for at most this long (ms) at a time, then go on in a later
   * macrotask, so a large list (50,000 objects) never blocks the event loop for seconds. A list's
   * deltas are all queued first (one replace, as client-go's; itself in slices, with whatever
   * arrives meanwhile waiting behind it), then popped in slices. Default: all at once.
   */
  sliceMs?: number | undefined;
  /** Called for each queued delta (probes). */
  onDelta?: ((type: DeltaType, key: string, obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>) => void) | undefined;
}

/**
 * One queued key. Its first delta lives in the entry itself (most keys get one delta between pops,
 * so that costs one allocation); `more` holds all of them once there are two or more.
 */
class Entry<T extends KubeObject> implements Delta<T> {
  readonly key: string;
  type: DeltaType;
  object: DeepReadonly<T> | DeletedFinalStateUnknown<T>;
  more: Delta<T>[] | undefined = undefined;
  /** Handed to the processor; a new delta for the key starts a new entry. */
  popped = false;
  /** Holds a delta of the first replace: popping it counts towards `hasSynced`. */
  initial = false;

  constructor(key: string, type: DeltaType, object: DeepReadonly<T> | DeletedFinalStateUnknown<T>) {
    this.key = key;
    this.type = type;
    this.object = object;
  }
}

class DeltaFifoImpl<T extends KubeObject> {
  /**
   * key → its entry. Invariant: a key is queued iff its entry is here and not `popped`. Popping
   * marks the entry instead of deleting it, and the whole map is replaced once the queue is empty:
   * a small map that is filled and emptied by deletes on every batch makes V8 grow and shrink its
   * table over and over (measured: ~2 µs per event).
   */
  private items = new Map<string, Entry<T>>();
  /** Hands a lone delta to the processor without allocating an array per pop. */
  private readonly single: Delta<T>[] = [undefined!];
  /** The delta handed straight to an idle consumer, reused: consumers do not keep deltas. */
  private readonly direct: { type: DeltaType; object: DeepReadonly<T> | DeletedFinalStateUnknown<T> | undefined } = { type: 'Added', object: undefined };
  private queue: Entry<T>[] = [];
  private head = 0;
  private populated = false;
  private synced = false;
  /** Inside the first `replace`: what it queues or hands over is the initial list. */
  private inFirstReplace = false;
  private firstReplaceVersion = '';
  /** Queued entries holding deltas of the first replace. */
  private initialRemaining = 0;
  /** The consumer is running: new deltas queue behind the one it holds. */
  private consuming = false;
  /** A sliced drain goes on in a later macrotask: new deltas queue behind it. */
  private drainScheduled = false;
  /** A list being queued a slice at a time; calls made meanwhile wait in `waiting`, in order. */
  private replacing: { list: readonly T[]; next: number; listed: Set<string> | undefined; first: boolean; resourceVersion: string } | undefined;
  private waiting: (() => void)[] = [];
  private readonly sliceMs: number | undefined;
  private readonly knownObjects: ReadonlyIndexer<T>;
  private readonly transform: ((obj: T) => T) | undefined;
  private readonly consumer: PopProcessor<T> | undefined;
  private readonly onSynced: ((resourceVersion: string) => void) | undefined;
  private readonly onNonEmpty: (() => void) | undefined;
  private readonly onDelta: DeltaFifoOptions<T>['onDelta'];

  constructor(options: DeltaFifoOptions<T>) {
    this.knownObjects = options.knownObjects;
    this.transform = options.transform;
    this.consumer = options.consumer;
    this.sliceMs = options.sliceMs;
    this.onSynced = options.onSynced;
    this.onNonEmpty = options.onNonEmpty;
    this.onDelta = options.onDelta;
  }

  get length(): number {
    return this.queue.length - this.head;
  }

  add(obj: T): void {
    if (this.replacing) return void this.waiting.push(() => this.add(obj));
    this.populated = true;
    const incoming = this.incoming(obj);
    this.queueAction('Added', objectKey(incoming as Readonly<KubeObject>), incoming);
    this.checkSynced();
  }

  update(obj: T): void {
    if (this.replacing) return void this.waiting.push(() => this.update(obj));
    this.populated = true;
    const incoming = this.incoming(obj);
    this.queueAction('Updated', objectKey(incoming as Readonly<KubeObject>), incoming);
    this.checkSynced();
  }

  delete(obj: T): void {
    if (this.replacing) return void this.waiting.push(() => this.delete(obj));
    this.populated = true;
    const incoming = this.incoming(obj);
    const key = objectKey(incoming as Readonly<KubeObject>);
    // A delete for something neither cached nor queued changes nothing (client-go does the same).
    if (this.knownObjects.has(key) || this.isQueued(key)) this.queueAction('Deleted', key, incoming);
    this.checkSynced();
  }

  /** `transformed`: the list's items already went through the transform (as they were decoded). */
  replace(list: readonly T[], resourceVersion: string, transformed = false): void {
    if (this.replacing) return void this.waiting.push(() => this.replace(list, resourceVersion, transformed));
    // Nothing cached and nothing queued (the first list, usually): nothing can have vanished.
    const mayHaveVanished = this.knownObjects.size > 0 || this.length > 0;
    const listed = mayHaveVanished ? new Set<string>() : undefined;
    // Sliced, with nothing left to transform (nothing that can throw): queued a slice at a time too.
    if (this.consumer !== undefined && this.sliceMs !== undefined && !this.consuming && (transformed || this.transform === undefined)) {
      this.replacing = { list, next: 0, listed, first: !this.populated, resourceVersion };
      this.queueListSlice(this.consumer, true);
      return;
    }
    // A first replace that fails part way (a transform throws) leaves the next one the first.
    this.inFirstReplace = !this.populated;
    // Sliced: queue the whole list first (nothing handed over meanwhile), then drain in slices.
    const sliced = this.consumer !== undefined && this.sliceMs !== undefined && !this.consuming;
    if (sliced) this.consuming = true;
    try {
      for (const raw of list) {
        const obj = transformed ? (raw as DeepReadonly<T>) : this.incoming(raw);
        const key = objectKey(obj as Readonly<KubeObject>);
        listed?.add(key);
        this.queueAction('Replaced', key, obj);
      }
      if (listed) this.queueVanished(listed);
    } finally {
      this.inFirstReplace = false;
      if (sliced) this.consuming = false;
    }
    if (!this.populated) {
      this.populated = true;
      this.firstReplaceVersion = resourceVersion;
    }
    if (sliced && !this.drainScheduled) this.drain(this.consumer!);
    this.checkSynced();
  }

  resync(): void {
    if (this.replacing) return void this.waiting.push(() => this.resync());
    for (const key of this.knownObjects.listKeys()) {
      if (this.isQueued(key)) continue;
      const obj = this.knownObjects.get(key);
      if (obj !== undefined) this.queueAction('Sync', key, obj);
    }
  }

  pop(process: PopProcessor<T>): boolean {
    if (this.head >= this.queue.length) return false;
    const entry = this.queue[this.head]!;
    this.queue[this.head] = undefined!;
    this.head++;
    entry.popped = true;
    if (this.head === this.queue.length) {
      // Empty: start afresh (see `items`).
      this.queue = [];
      this.head = 0;
      this.items = new Map();
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (entry.initial) this.initialRemaining--;
    if (entry.more) {
      process(entry.key, entry.more, entry.initial);
    } else {
      this.single[0] = entry;
      try {
        process(entry.key, this.single, entry.initial);
      } finally {
        this.single[0] = undefined!;
      }
    }
    if (entry.initial) this.checkSynced();
    return true;
  }

  hasSynced(): boolean {
    return this.populated && this.initialRemaining === 0;
  }

  pending(key: string): readonly Delta<T>[] | undefined {
    const entry = this.items.get(key);
    return entry === undefined || entry.popped ? undefined : (entry.more ?? [{ type: entry.type, object: entry.object }]);
  }

  private checkSynced(): void {
    if (this.synced || !this.hasSynced()) return;
    this.synced = true;
    this.onSynced?.(this.firstReplaceVersion);
  }

  /**
   * Queues the next slice of a sliced replace; after the last, the tombstones, then hands over. An
   * object without a name ends the list there, as it ends a replace at once: thrown to the caller
   * from the first slice, dropped in later ones (nobody is left to catch it; the reflector's lists
   * have none).
   */
  private queueListSlice(consumer: PopProcessor<T>, first = false): void {
    const r = this.replacing!;
    const until = performance.now() + this.sliceMs!;
    this.inFirstReplace = r.first;
    this.consuming = true;
    try {
      while (r.next < r.list.length) {
        const obj = r.list[r.next++] as DeepReadonly<T>;
        const key = objectKey(obj as Readonly<KubeObject>);
        r.listed?.add(key);
        this.queueAction('Replaced', key, obj);
        if ((r.next & 31) === 0 && performance.now() >= until) break;
      }
      if (r.next === r.list.length && r.listed) this.queueVanished(r.listed);
    } catch (err) {
      this.replacing = undefined;
      this.runWaiting();
      if (first) throw err;
      return;
    } finally {
      this.inFirstReplace = false;
      this.consuming = false;
    }
    if (r.next < r.list.length) return void setImmediate(() => this.queueListSlice(consumer));
    this.replacing = undefined;
    if (!this.populated) {
      this.populated = true;
      this.firstReplaceVersion = r.resourceVersion;
    }
    if (!this.drainScheduled) this.drain(consumer);
    this.checkSynced();
    this.runWaiting();
  }

  /** What arrived during a sliced replace, in order (a second list waits behind this one's slices in turn). */
  private runWaiting(): void {
    while (this.waiting.length > 0 && !this.replacing) this.waiting.shift()!();
  }

  /** Tombstones, after a replace, for keys the list no longer has (client-go: the deletions Replace finds). */
  private queueVanished(listed: ReadonlySet<string>): void {
    // Keys still queued (not yet in the cache): their newest delta is the last state we know.
    const queued: [string, DeepReadonly<T> | undefined][] = [];
    for (const entry of this.items.values()) {
      if (entry.popped || listed.has(entry.key)) continue;
      const newest = (entry.more ? entry.more[entry.more.length - 1]! : entry).object;
      queued.push([entry.key, newest instanceof DeletedFinalStateUnknown ? newest.obj : newest]);
    }
    for (const [key, last] of queued) this.queueAction('Deleted', key, new DeletedFinalStateUnknown(key, last));
    // Keys in the cache that vanished while we were not watching.
    for (const key of this.knownObjects.listKeys()) {
      if (listed.has(key) || this.isQueued(key)) continue;
      this.queueAction('Deleted', key, new DeletedFinalStateUnknown(key, this.knownObjects.get(key)));
    }
  }

  private isQueued(key: string): boolean {
    const entry = this.items.get(key);
    return entry !== undefined && !entry.popped;
  }

  private incoming(obj: T): DeepReadonly<T> {
    return (this.transform ? this.transform(obj) : obj) as DeepReadonly<T>;
  }

  private queueAction(type: DeltaType, key: string, obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>): void {
    const consumer = this.consumer;
    if (consumer !== undefined && !this.consuming && !this.drainScheduled && this.head === this.queue.length) {
      this.onDelta?.(type, key, obj);
      this.handOver(consumer, key, type, obj);
      return;
    }
    if (!this.enqueue(type, key, obj)) return;
    this.onDelta?.(type, key, obj);
    if (consumer === undefined) {
      if (this.length === 1) this.onNonEmpty?.();
    } else if (!this.consuming && !this.drainScheduled) {
      // Left behind by a consumer that threw: hand everything over now.
      this.drain(consumer);
    }
  }

  /** Appends a delta to its key's entry (a new entry at the back for a key not queued); false when it collapsed into the previous delete. */
  private enqueue(type: DeltaType, key: string, obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>): boolean {
    const entry = this.items.get(key);
    if (entry === undefined || entry.popped) {
      const fresh = new Entry<T>(key, type, obj);
      if (this.inFirstReplace) {
        fresh.initial = true;
        this.initialRemaining++;
      }
      this.items.set(key, fresh);
      this.queue.push(fresh);
      return true;
    }
    if (this.inFirstReplace && !entry.initial) {
      entry.initial = true;
      this.initialRemaining++;
    }
    const more = entry.more;
    const lastType = more ? more[more.length - 1]!.type : entry.type;
    // Consecutive deletes collapse into one; keep the one that knows the final state.
    if (type === 'Deleted' && lastType === 'Deleted') {
      if (obj instanceof DeletedFinalStateUnknown) return false;
      if (more) more[more.length - 1] = { type, object: obj };
      else entry.object = obj;
      return false;
    }
    if (more) more.push({ type, object: obj });
    else entry.more = [{ type: entry.type, object: entry.object }, { type, object: obj }];
    return true;
  }

  /** The waiting consumer takes the delta now, then whatever it queued meanwhile. */
  private handOver(consumer: PopProcessor<T>, key: string, type: DeltaType, obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>): void {
    this.consuming = true;
    this.direct.type = type;
    this.direct.object = obj;
    this.single[0] = this.direct as Delta<T>;
    try {
      consumer(key, this.single, this.inFirstReplace);
    } finally {
      this.single[0] = undefined!;
      this.direct.object = undefined;
      this.consuming = false;
      if (this.head < this.queue.length) this.drain(consumer);
    }
  }

  private drain(consumer: PopProcessor<T>): void {
    this.consuming = true;
    const until = this.sliceMs === undefined ? Infinity : performance.now() + this.sliceMs;
    try {
      // One key at a time, oldest first; sliced, the rest waits for a later macrotask.
      while (this.pop(consumer)) {
        if (this.head < this.queue.length && performance.now() >= until) {
          this.drainScheduled = true;
          setImmediate(() => {
            this.drainScheduled = false;
            try {
              this.drain(consumer);
            } catch {
              // The consumer threw: what is left goes with the next delta, as after a synchronous drain.
            }
          });
          break;
        }
      }
    } finally {
      this.consuming = false;
    }
  }
}

export function createDeltaFifo<T extends KubeObject = KubeObject>(options: DeltaFifoOptions<T>): DeltaFifo<T> {
  return new DeltaFifoImpl<T>(options) satisfies DeltaFifo<T>;
}

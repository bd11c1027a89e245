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
  replace(list: readonly T[], resourceVersion: string): void;
  /** Queues `Sync` for every cached object that has no pending deltas (periodic resync). */
  resync(): void;
}

/** Processes one popped key: its deltas, oldest first, never empty. The array is only valid during the call. */
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
  /** Called when the queue goes from empty to non-empty (or a replace left it empty), so the owner can schedule a drain. */
  onNonEmpty?: (() => void) | undefined;
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

  constructor(key: string, type: DeltaType, object: DeepReadonly<T> | DeletedFinalStateUnknown<T>) {
    this.key = key;
    this.type = type;
    this.object = object;
  }
}

function keyOf<T extends KubeObject>(obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>): string {
  return obj instanceof DeletedFinalStateUnknown ? obj.key : objectKey(obj as Readonly<KubeObject>);
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
  private readonly single: Delta<T>[] = [];
  private queue: Entry<T>[] = [];
  private head = 0;
  private populated = false;
  /** Keys of the first replace not yet popped. */
  private initialPopulationCount = 0;
  private readonly knownObjects: ReadonlyIndexer<T>;
  private readonly transform: ((obj: T) => T) | undefined;
  private readonly onNonEmpty: (() => void) | undefined;
  private readonly onDelta: DeltaFifoOptions<T>['onDelta'];

  constructor(options: DeltaFifoOptions<T>) {
    this.knownObjects = options.knownObjects;
    this.transform = options.transform;
    this.onNonEmpty = options.onNonEmpty;
    this.onDelta = options.onDelta;
  }

  get length(): number {
    return this.queue.length - this.head;
  }

  add(obj: T): void {
    this.populated = true;
    this.queueAction('Added', this.incoming(obj));
  }

  update(obj: T): void {
    this.populated = true;
    this.queueAction('Updated', this.incoming(obj));
  }

  delete(obj: T): void {
    this.populated = true;
    const incoming = this.incoming(obj);
    const key = keyOf(incoming);
    // A delete for something neither cached nor queued changes nothing (client-go does the same).
    if (!this.knownObjects.has(key) && !this.isQueued(key)) return;
    this.queueAction('Deleted', incoming);
  }

  replace(list: readonly T[], _resourceVersion: string): void {
    const listed = new Set<string>();
    for (const raw of list) {
      const obj = this.incoming(raw);
      listed.add(keyOf(obj));
      this.queueAction('Replaced', obj);
    }
    // Keys still queued (not yet in the cache) that the list no longer has.
    let queuedDeletions = 0;
    for (const [key, entry] of this.items) {
      if (entry.popped || listed.has(key)) continue;
      const newest = (entry.more ? entry.more[entry.more.length - 1]! : entry).object;
      const last = newest instanceof DeletedFinalStateUnknown ? newest.obj : newest;
      queuedDeletions++;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(key, last));
    }
    // Keys in the cache that vanished while we were not watching.
    for (const key of this.knownObjects.listKeys()) {
      if (listed.has(key) || this.isQueued(key)) continue;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(key, this.knownObjects.get(key)));
    }
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = listed.size + queuedDeletions;
    }
    // An empty first list queues nothing, yet the owner must look again: it is synced now.
    if (this.length === 0) this.onNonEmpty?.();
  }

  resync(): void {
    for (const key of this.knownObjects.listKeys()) {
      if (this.isQueued(key)) continue;
      const obj = this.knownObjects.get(key);
      if (obj !== undefined) this.queueAction('Sync', obj);
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
    const key = entry.key;
    const isInInitialList = this.initialPopulationCount > 0;
    if (isInInitialList) this.initialPopulationCount--;
    if (entry.more) {
      process(key, entry.more, isInInitialList);
    } else {
      // Overwritten, never emptied: `length = 0` would free the backing store and cost an
      // allocation on every pop.
      this.single[0] = entry;
      process(key, this.single, isInInitialList);
    }
    return true;
  }

  hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }

  pending(key: string): readonly Delta<T>[] | undefined {
    const entry = this.items.get(key);
    return entry === undefined || entry.popped ? undefined : (entry.more ?? [{ type: entry.type, object: entry.object }]);
  }

  private isQueued(key: string): boolean {
    const entry = this.items.get(key);
    return entry !== undefined && !entry.popped;
  }

  private incoming(obj: T): DeepReadonly<T> {
    return (this.transform ? this.transform(obj) : obj) as DeepReadonly<T>;
  }

  private queueAction(type: DeltaType, obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>): void {
    const key = keyOf(obj);
    const entry = this.items.get(key);
    if (entry === undefined || entry.popped) {
      const fresh = new Entry<T>(key, type, obj);
      this.items.set(key, fresh);
      this.queue.push(fresh);
      if (this.head === this.queue.length - 1) this.onNonEmpty?.();
    } else {
      const more = entry.more;
      const lastType = more ? more[more.length - 1]!.type : entry.type;
      // Consecutive deletes collapse into one; keep the one that knows the final state.
      if (type === 'Deleted' && lastType === 'Deleted') {
        if (obj instanceof DeletedFinalStateUnknown) return;
        if (more) more[more.length - 1] = { type, object: obj };
        else entry.object = obj;
        return;
      }
      if (more) more.push({ type, object: obj });
      else entry.more = [{ type: entry.type, object: entry.object }, { type, object: obj }];
    }
    this.onDelta?.(type, key, obj);
  }
}

export function createDeltaFifo<T extends KubeObject = KubeObject>(options: DeltaFifoOptions<T>): DeltaFifo<T> {
  return new DeltaFifoImpl<T>(options) satisfies DeltaFifo<T>;
}

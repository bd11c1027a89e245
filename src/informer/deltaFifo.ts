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

/** Processes one popped key: its deltas, oldest first, never empty. */
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

function keyOf<T extends KubeObject>(obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>): string {
  return obj instanceof DeletedFinalStateUnknown ? obj.key : objectKey(obj as Readonly<KubeObject>);
}

class DeltaFifoImpl<T extends KubeObject> {
  /** key → deltas, oldest first. Invariant: a key is in `items` iff it is in `queue[head..]`. */
  private readonly items = new Map<string, Delta<T>[]>();
  private queue: string[] = [];
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
    if (!this.knownObjects.has(key) && !this.items.has(key)) return;
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
    for (const [key, deltas] of this.items) {
      if (listed.has(key)) continue;
      const newest = deltas[deltas.length - 1]!.object;
      const last = newest instanceof DeletedFinalStateUnknown ? newest.obj : newest;
      queuedDeletions++;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(key, last));
    }
    // Keys in the cache that vanished while we were not watching.
    for (const key of this.knownObjects.listKeys()) {
      if (listed.has(key) || this.items.has(key)) continue;
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
      if (this.items.has(key)) continue;
      const obj = this.knownObjects.get(key);
      if (obj !== undefined) this.queueAction('Sync', obj);
    }
  }

  pop(process: PopProcessor<T>): boolean {
    if (this.head >= this.queue.length) return false;
    const key = this.queue[this.head]!;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    const deltas = this.items.get(key)!;
    this.items.delete(key);
    const isInInitialList = this.initialPopulationCount > 0;
    if (isInInitialList) this.initialPopulationCount--;
    process(key, deltas, isInInitialList);
    return true;
  }

  hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }

  pending(key: string): readonly Delta<T>[] | undefined {
    return this.items.get(key);
  }

  private incoming(obj: T): DeepReadonly<T> {
    return (this.transform ? this.transform(obj) : obj) as DeepReadonly<T>;
  }

  private queueAction(type: DeltaType, obj: DeepReadonly<T> | DeletedFinalStateUnknown<T>): void {
    const key = keyOf(obj);
    const delta: Delta<T> = { type, object: obj };
    const deltas = this.items.get(key);
    if (deltas === undefined) {
      this.items.set(key, [delta]);
      this.queue.push(key);
      if (this.head === this.queue.length - 1) this.onNonEmpty?.();
    } else {
      const last = deltas[deltas.length - 1]!;
      // Consecutive deletes collapse into one; keep the one that knows the final state.
      if (type === 'Deleted' && last.type === 'Deleted') {
        if (!(obj instanceof DeletedFinalStateUnknown)) deltas[deltas.length - 1] = delta;
        return;
      }
      deltas.push(delta);
    }
    this.onDelta?.(type, key, obj);
  }
}

export function createDeltaFifo<T extends KubeObject = KubeObject>(options: DeltaFifoOptions<T>): DeltaFifo<T> {
  return new DeltaFifoImpl<T>(options) satisfies DeltaFifo<T>;
}

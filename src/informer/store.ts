import type { KubeObject } from '../shared/k8s.ts';
import type { DeepReadonly } from './readonly.ts';
import { SharedValues } from './sharedValues.ts';
import type { Holding, SharedValuesStats } from './sharedValues.ts';

// The informer's cache (client-go store.go + index.go + thread_safe_store.go): objects keyed
// `namespace/name`, plus indexes that map an index value (a namespace, a label, an owner…) to the
// keys of the objects that produce it. Readers get the cached objects themselves, read-only.
// Long values repeated across objects are kept once (sharedValues.ts).

/** Computes the index values of an object; an object may produce none, one or several. */
export type IndexFunc<T extends KubeObject = KubeObject> = (obj: DeepReadonly<T>) => readonly string[];

export type Indexers<T extends KubeObject = KubeObject> = Record<string, IndexFunc<T>>;

/** The index every informer has: objects by `metadata.namespace` ('' for cluster-scoped objects). */
export const NAMESPACE_INDEX = 'namespace';

export const namespaceIndexFunc: IndexFunc = (obj) => [obj.metadata.namespace ?? ''];

/** What readers (handlers, controllers, views) may do with the cache. */
export interface ReadonlyIndexer<T extends KubeObject = KubeObject> {
  /** The cached object under `namespace/name` (or `name` when cluster-scoped). */
  get(key: string): DeepReadonly<T> | undefined;
  has(key: string): boolean;
  /** Every cached object, in no particular order. */
  list(): DeepReadonly<T>[];
  listKeys(): string[];
  readonly size: number;
  /** Objects whose index `indexName` produced `value`. Throws for an unknown index name. */
  byIndex(indexName: string, value: string): DeepReadonly<T>[];
  /** Keys of the objects whose index `indexName` produced `value`. Throws for an unknown index name. */
  indexKeys(indexName: string, value: string): string[];
  /** Every value index `indexName` currently holds. */
  listIndexFuncValues(indexName: string): string[];
  indexerNames(): string[];
  /** The table of long values the cached objects share (what it holds, for diagnostics). */
  sharedValues(): SharedValuesStats;
}

/** The writable cache the informer keeps; only the informer's delta processing writes to it. */
export interface Indexer<T extends KubeObject = KubeObject> extends ReadonlyIndexer<T> {
  /**
   * Inserts or replaces the object under `key`, keeping every index consistent; returns the
   * previous one. `initialList`: the object comes from the informer's first list (see IndexedStore's
   * `unshared`).
   */
  set(key: string, obj: DeepReadonly<T>, initialList?: boolean): DeepReadonly<T> | undefined;
  /** Removes the object under `key` from the cache and every index; returns it. */
  delete(key: string): DeepReadonly<T> | undefined;
  /** Adds indexes; existing objects are indexed at once. Throws if a name is already taken. */
  addIndexers(indexers: Indexers<T>): void;
}

const EMPTY: readonly string[] = [];

/** A slot's holding while its object's values are not yet in the shared table; gives back nothing. */
const NOT_YET_SHARED: Holding = Object.freeze([]) as unknown as Holding;

/** Slots of the first list whose values each later write puts in the shared table. */
const SHARED_PER_WRITE = 8;

export interface IndexerOptions {
  /** Keep long values repeated across objects once (see sharedValues.ts). Default true. */
  shareValues?: boolean;
}

/** One key's object, and what it holds from the shared values table. */
class Slot<T extends KubeObject> {
  obj: DeepReadonly<T>;
  held: Holding | undefined;

  constructor(obj: DeepReadonly<T>, held: Holding | undefined) {
    this.obj = obj;
    this.held = held;
  }
}

class IndexedStore<T extends KubeObject> {
  // One slot per key, updated in place: an update looks its key up once, and what the object
  // holds from the shared values table sits next to it.
  private readonly items = new Map<string, Slot<T>>();
  // Parallel arrays, not a Map: iterated on every write, and a Map iterator allocates.
  private readonly names: string[] = [];
  private readonly funcs: IndexFunc<T>[] = [];
  /**
   * Per index: kept up to date on every write yet? The built-in namespace index is built when
   * first read (a plain informer may never ask), user indexes at once (their functions fail early).
   */
  private readonly live: boolean[] = [];
  /** index name → index value → keys. Invariant, for a live index: a key is under a value iff its object produces it. */
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  private readonly values: SharedValues | undefined;
  /**
   * New slots of the informer's first list, their values not yet in the shared table: taken there
   * SHARED_PER_WRITE at a time by each later write, all at once when the table is read. The list
   * already holds each repeated value once (the reflector's RepeatedValues), so this costs no
   * memory; it takes the table's walk off the first sync, where it ran 10k times on code V8 had not
   * compiled yet, to writes that find it compiled.
   */
  private unshared: (Slot<T> | undefined)[] = [];
  private unsharedAt = 0;

  constructor(indexers: Indexers<T>, options: IndexerOptions) {
    this.values = options.shareValues === false ? undefined : new SharedValues();
    this.addIndexers(indexers);
  }

  get size(): number {
    return this.items.size;
  }

  get(key: string): DeepReadonly<T> | undefined {
    return this.items.get(key)?.obj;
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  list(): DeepReadonly<T>[] {
    const out: DeepReadonly<T>[] = [];
    for (const slot of this.items.values()) out.push(slot.obj);
    return out;
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  set(key: string, obj: DeepReadonly<T>, initialList = false): DeepReadonly<T> | undefined {
    const values = this.values;
    if (!initialList && this.unsharedAt < this.unshared.length) this.shareListed(SHARED_PER_WRITE);
    const slot = this.items.get(key);
    if (slot === undefined) {
      if (initialList && values !== undefined) {
        const fresh = new Slot(obj, NOT_YET_SHARED);
        this.items.set(key, fresh);
        this.unshared.push(fresh);
      } else this.items.set(key, new Slot(obj, values?.retain(obj)));
      this.reindexAll(key, undefined, obj);
      return undefined;
    }
    const old = slot.obj;
    if (old === obj) return old;
    slot.obj = obj;
    if (values !== undefined) {
      // Taken first, given back second: a value both objects hold never leaves the table in between.
      const held = slot.held;
      slot.held = values.retain(obj);
      if (held !== undefined) values.release(held);
    }
    this.reindexAll(key, old, obj);
    return old;
  }

  delete(key: string): DeepReadonly<T> | undefined {
    if (this.unsharedAt < this.unshared.length) this.shareListed(SHARED_PER_WRITE);
    const slot = this.items.get(key);
    if (slot === undefined) return undefined;
    this.items.delete(key);
    if (slot.held !== undefined) this.values?.release(slot.held);
    // Out of the cache: nothing to share any more (NOT_YET_SHARED gave nothing back).
    slot.held = undefined;
    this.reindexAll(key, slot.obj, undefined);
    return slot.obj;
  }

  byIndex(indexName: string, value: string): DeepReadonly<T>[] {
    const out: DeepReadonly<T>[] = [];
    for (const key of this.keysOf(indexName, value)) {
      const slot = this.items.get(key);
      if (slot !== undefined) out.push(slot.obj);
    }
    return out;
  }

  indexKeys(indexName: string, value: string): string[] {
    return [...this.keysOf(indexName, value)];
  }

  listIndexFuncValues(indexName: string): string[] {
    return [...this.index(indexName).keys()];
  }

  indexerNames(): string[] {
    return [...this.names];
  }

  sharedValues(): SharedValuesStats {
    this.shareListed(Infinity);
    return this.values?.stats() ?? { values: 0, references: 0, chars: 0 };
  }

  /** Puts the values of up to `count` first-list slots in the shared table (see `unshared`). */
  private shareListed(count: number): void {
    const values = this.values;
    const queue = this.unshared;
    const end = Math.min(queue.length, this.unsharedAt + count);
    let i = this.unsharedAt;
    for (; i < end; i++) {
      const slot = queue[i]!;
      queue[i] = undefined;
      // A slot replaced or deleted since holds its share already, or is gone.
      if (values !== undefined && slot.held === NOT_YET_SHARED) slot.held = values.retain(slot.obj);
    }
    if (i < queue.length) this.unsharedAt = i;
    else {
      this.unshared = [];
      this.unsharedAt = 0;
    }
  }

  addIndexers(indexers: Indexers<T>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.names.includes(name)) throw new Error(`indexer "${name}" already exists`);
      this.names.push(name);
      this.funcs.push(fn);
      this.live.push(false);
      this.indices.set(name, new Map());
      if (fn !== namespaceIndexFunc) this.build(this.names.length - 1);
    }
  }

  private index(indexName: string): Map<string, Set<string>> {
    const i = this.names.indexOf(indexName);
    if (i < 0) throw new Error(`no indexer named "${indexName}"`);
    if (!this.live[i]) this.build(i);
    return this.indices.get(indexName)!;
  }

  private build(i: number): void {
    const name = this.names[i]!;
    const fn = this.funcs[i]!;
    for (const [key, { obj }] of this.items) {
      if (fn === namespaceIndexFunc) this.reindexNamespace(name, key, undefined, obj);
      else this.reindex(name, fn, key, undefined, obj);
    }
    this.live[i] = true;
  }

  private keysOf(indexName: string, value: string): Iterable<string> {
    return this.index(indexName).get(value) ?? EMPTY;
  }

  private reindexAll(key: string, old: DeepReadonly<T> | undefined, obj: DeepReadonly<T> | undefined): void {
    for (let i = 0; i < this.funcs.length; i++) {
      if (!this.live[i]) continue;
      const fn = this.funcs[i]!;
      if (fn === namespaceIndexFunc) this.reindexNamespace(this.names[i]!, key, old, obj);
      else this.reindex(this.names[i]!, fn, key, old, obj);
    }
  }

  /** The built-in namespace index: one value per object, so no arrays on the hot path. */
  private reindexNamespace(name: string, key: string, old: DeepReadonly<T> | undefined, obj: DeepReadonly<T> | undefined): void {
    const from = old === undefined ? undefined : (old.metadata.namespace ?? '');
    const to = obj === undefined ? undefined : (obj.metadata.namespace ?? '');
    if (from === to) return;
    const index = this.indices.get(name)!;
    if (from !== undefined) {
      const keys = index.get(from);
      if (keys) {
        keys.delete(key);
        if (keys.size === 0) index.delete(from);
      }
    }
    if (to !== undefined) {
      let keys = index.get(to);
      if (!keys) index.set(to, (keys = new Set()));
      keys.add(key);
    }
  }

  private reindex(name: string, fn: IndexFunc<T>, key: string, old: DeepReadonly<T> | undefined, obj: DeepReadonly<T> | undefined): void {
    const oldValues = old === undefined ? EMPTY : fn(old);
    const newValues = obj === undefined ? EMPTY : fn(obj);
    // The common case on the hot path: one value, unchanged (an update within the same namespace).
    if (oldValues.length === 1 && newValues.length === 1 && oldValues[0] === newValues[0]) return;
    const index = this.indices.get(name)!;
    for (const value of oldValues) {
      if (newValues.includes(value)) continue;
      const keys = index.get(value);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) index.delete(value);
    }
    for (const value of newValues) {
      if (oldValues.includes(value)) continue;
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }
}

/** A new, empty cache with the namespace index and the given user indexers. */
export function createIndexer<T extends KubeObject = KubeObject>(indexers: Indexers<T> = {}, options: IndexerOptions = {}): Indexer<T> {
  const store = new IndexedStore<T>({ [NAMESPACE_INDEX]: namespaceIndexFunc as IndexFunc<T> }, options);
  store.addIndexers(indexers);
  return store satisfies Indexer<T>;
}

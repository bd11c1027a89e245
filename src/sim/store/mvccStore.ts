import type { KubeObject } from '../../shared/k8s.ts';
import { History, type HistoryEvent } from './history.ts';
import { SortedKeys } from './sortedKeys.ts';
import { Stored } from './storedObject.ts';
import type { Watcher } from './watcher.ts';

// The MVCC core, after etcd: one global revision shared by every resource; each write takes the
// next one. Per resource: the current objects keyed `namespace/name` (kept in key order), a
// window of recent events (the watch cache) and the watchers to tell. Knows nothing of API
// semantics (that is apiStore.ts); it only commits versions and answers "what was there at RV N".

export class ResourceTable {
  readonly current = new Map<string, Stored>();
  keys = new SortedKeys();
  history: History;
  readonly watchers = new Set<Watcher>();

  readonly group: string;
  readonly resource: string;

  constructor(group: string, resource: string, capacity: number, windowStart: number) {
    this.group = group;
    this.resource = resource;
    this.history = new History(capacity, windowStart);
  }

  /** The objects as they were at `rv` (>= history.windowStart), undoing later events. */
  stateAt(rv: number): { objects: Map<string, Stored>; keys: SortedKeys } {
    const later = this.history.after(rv);
    if (later.length === 0) return { objects: this.current, keys: this.keys };
    const objects = new Map(this.current);
    for (let i = later.length - 1; i >= 0; i--) {
      const e = later[i];
      if (!e) continue;
      if (e.type === 'ADDED') objects.delete(e.key);
      else if (e.prev) objects.set(e.key, e.prev);
    }
    return { objects, keys: SortedKeys.from(objects.keys()) };
  }
}

export type CommitListener = (table: ResourceTable, event: HistoryEvent) => void;

export class MvccStore {
  private rv: number;
  /** History before this RV is gone (etcd compaction). */
  compactedRv = 0;
  private readonly tables = new Map<string, ResourceTable>();
  private readonly listeners = new Set<CommitListener>();

  private readonly capacity: number;

  constructor(capacity: number, startRv = 0) {
    this.capacity = capacity;
    this.rv = startRv;
  }

  get resourceVersion(): number {
    return this.rv;
  }

  /** The table of group/resource, created empty on first use. */
  table(group: string, resource: string): ResourceTable {
    const id = group ? `${resource}.${group}` : resource;
    let t = this.tables.get(id);
    if (!t) {
      // A new table has seen nothing before now: resumes from older RVs are too old for it... unless
      // nothing of this resource ever existed, which is the case for a new table: any RV is fine.
      t = new ResourceTable(group, resource, this.capacity, this.compactedRv);
      this.tables.set(id, t);
    }
    return t;
  }

  allTables(): ResourceTable[] {
    return [...this.tables.values()];
  }

  dropTable(group: string, resource: string): ResourceTable | undefined {
    const id = group ? `${resource}.${group}` : resource;
    const t = this.tables.get(id);
    this.tables.delete(id);
    return t;
  }

  onCommit(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Commits a new version of `key`: `next` (mutable, taken over and frozen) or, for a delete,
   * undefined. Returns the event, already offered to the table's watchers.
   */
  commit(table: ResourceTable, key: string, next: KubeObject | undefined): HistoryEvent {
    const prev = table.current.get(key);
    const rv = ++this.rv;
    let event: HistoryEvent;
    if (next) {
      next.metadata.resourceVersion = String(rv);
      const stored = new Stored(next, rv);
      table.current.set(key, stored);
      if (prev) event = { type: 'MODIFIED', key, rv, object: stored, prev };
      else {
        table.keys.insert(key);
        event = { type: 'ADDED', key, rv, object: stored };
      }
    } else {
      if (!prev) throw new Error(`commit: delete of missing ${key}`);
      table.current.delete(key);
      table.keys.remove(key);
      event = { type: 'DELETED', key, rv, object: prev.withResourceVersion(rv), prev };
    }
    table.history.push(event);
    for (const w of table.watchers) w.offer(event);
    for (const l of this.listeners) l(table, event);
    return event;
  }

  /** Drops history before `rv` in every table. */
  compact(rv: number): number {
    const target = Math.min(Math.max(rv, this.compactedRv), this.rv);
    this.compactedRv = target;
    for (const t of this.tables.values()) t.history.compact(target);
    return target;
  }

  /** Forgets every table's history (a restart that lost its watch cache): window starts now. */
  resetHistory(): void {
    for (const t of this.tables.values()) t.history = new History(this.capacity, this.rv);
  }

  /** Loads objects as they were persisted (no events; history starts at `rv`). */
  load(rv: number, objects: { group: string; resource: string; object: KubeObject }[]): void {
    this.rv = Math.max(this.rv, rv);
    this.compactedRv = this.rv;
    for (const { group, resource, object } of objects) {
      const t = this.table(group, resource);
      const key = object.metadata.namespace ? `${object.metadata.namespace}/${object.metadata.name ?? ''}` : object.metadata.name ?? '';
      t.current.set(key, new Stored(object, Number(object.metadata.resourceVersion ?? 0)));
    }
    for (const t of this.tables.values()) {
      t.keys = SortedKeys.from(t.current.keys());
      t.history = new History(this.capacity, this.rv);
    }
  }
}

import { ApiError } from '../../shared/apiError.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { History, type HistoryEvent } from './history.ts';
import { nestedTooDeeply, valueTooDeep } from './nestingDepth.ts';
import { SortedKeys } from './sortedKeys.ts';
import { Stored } from './storedObject.ts';
import type { Watcher } from './watcher.ts';
import { qualifiedResource } from '../../shared/k8s.ts';

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

  /** The objects now. */
  view(): StateView {
    return { get: (k) => this.current.get(k), range: (p, f) => this.keys.range(p, f), countFrom: (p, f) => this.keys.countFrom(p, f) };
  }

  /**
   * The objects as they were at `rv` (>= history.windowStart): the current state overlaid with
   * what the later events replaced, so nothing is copied and only touched keys are re-sorted.
   */
  stateAt(rv: number): StateView {
    const later = this.history.after(rv);
    if (later.length === 0) return this.view();
    const overlay = new Map<string, Stored | null>();
    for (let i = later.length - 1; i >= 0; i--) {
      const e = later[i];
      if (e) overlay.set(e.key, e.type === 'ADDED' ? null : e.prev ?? null);
    }
    const extra = [...overlay].filter(([k, v]) => v !== null && !this.current.has(k)).map(([k]) => k).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const get = (k: string): Stored | undefined => (overlay.has(k) ? overlay.get(k) ?? undefined : this.current.get(k));
    const keys = this.keys;
    function* range(prefix: string, from: string): Generator<string> {
      const lo = from > prefix ? from : prefix;
      const more = extra.filter((k) => k >= lo && k.startsWith(prefix));
      let j = 0;
      for (const k of keys.range(prefix, from)) {
        while (j < more.length && (more[j] ?? '') < k) yield more[j++] ?? '';
        if (get(k)) yield k;
      }
      while (j < more.length) yield more[j++] ?? '';
    }
    const inRange = (k: string, prefix: string, from: string): boolean => k >= from && k.startsWith(prefix);
    const countFrom = (prefix: string, from: string): number => {
      let n = keys.countFrom(prefix, from);
      for (const k of extra) if (inRange(k, prefix, from)) n++;
      for (const [k, v] of overlay) if (v === null && this.current.has(k) && inRange(k, prefix, from)) n--;
      return n;
    };
    return { get, range, countFrom };
  }
}

/** A read-only state of one resource at one RV. */
export interface StateView {
  get(key: string): Stored | undefined;
  /** Keys >= `from` starting with `prefix`, in order (only keys that exist in this state). */
  range(prefix: string, from: string): Iterable<string>;
  /** Fast count for range(prefix, from), when the view can tell without iterating. */
  countFrom?(prefix: string, from: string): number;
}

/** etcd's default --max-request-bytes: a larger value is refused with this message (as a 500). */
const MAX_VALUE_BYTES = 1.5 * 1024 * 1024;

/** Told of every commit before anyone else, in commit order (the work a commit causes may commit in turn). */
export interface CommitLog {
  /** May throw (the commit is then not made): called before `rv` is handed out. */
  beforeCommit(rv: number): void;
  recordCommit(table: ResourceTable, event: HistoryEvent): void;
}

/**
 * What every watch cache window keeps, in bytes of its objects' JSON (heap holds a few times that):
 * 1000 events of a resource whose objects are 1 MB would otherwise keep a GB.
 */
export const DEFAULT_HISTORY_BYTES = 128 * 1024 * 1024;

export class MvccStore {
  private rv: number;
  /** History before this RV is gone (etcd compaction). */
  compactedRv = 0;
  /**
   * Lists at an RV before this one (continue tokens, Exact) are gone: etcd's periodic compaction
   * (storageCompaction.ts), which leaves the watch cache's window to watches.
   */
  storageCompactedRv = 0;
  private readonly tables = new Map<string, ResourceTable>();
  /** Persistence (a state dir), when there is one. */
  commitLog: CommitLog | undefined;
  /** Refuses puts that would grow the store while memory is short (etcd's quota). */
  quota: { admitPut(): void } | undefined;

  private readonly capacity: number;
  /** The bytes (of JSON) every resource's window may keep together: the oldest events go first. */
  private readonly historyBytes: number;

  constructor(capacity: number, startRv = 0, historyBytes = DEFAULT_HISTORY_BYTES) {
    this.capacity = capacity;
    this.rv = startRv;
    this.historyBytes = historyBytes;
  }

  get resourceVersion(): number {
    return this.rv;
  }

  /** The table of group/resource, created empty on first use. */
  table(group: string, resource: string): ResourceTable {
    const id = qualifiedResource({ group, resource });
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
    const id = qualifiedResource({ group, resource });
    const t = this.tables.get(id);
    this.tables.delete(id);
    return t;
  }

  /**
   * Commits a new version of `key`: `next` (mutable, taken over and frozen) or, for a delete,
   * undefined. Returns the event, already offered to the table's watchers.
   * Throws (and changes nothing) when `next` nests deeper than MAX_NESTING_DEPTH.
   */
  commit(table: ResourceTable, key: string, next: KubeObject | undefined): HistoryEvent {
    // Checked before anything changes: a version that cannot be serialized must never be stored.
    if (next && valueTooDeep(next)) throw nestedTooDeeply();
    const prev = table.current.get(key);
    if (!next && !prev) throw new Error(`commit: delete of missing ${key}`);
    // Serialized before the revision is taken: an object etcd would refuse leaves no trace.
    let json: string | undefined;
    if (next) {
      next.metadata.resourceVersion = String(this.rv + 1);
      json = JSON.stringify(next);
      if (json.length > MAX_VALUE_BYTES && Buffer.byteLength(json) > MAX_VALUE_BYTES) throw new ApiError(500, 'etcdserver: request is too large');
      // A put that does not grow the object (a finalizer removed, a status rewritten) still goes through.
      if (!prev || json.length > prev.json().length) this.quota?.admitPut();
    }
    this.commitLog?.beforeCommit(this.rv + 1);
    const rv = ++this.rv;
    let event: HistoryEvent;
    if (next) {
      const stored = new Stored(next, rv, json);
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
    table.history.push(event, (event.prev && !next ? event.prev : event.object).json().length);
    this.trimHistories();
    this.commitLog?.recordCommit(table, event);
    for (const w of table.watchers) w.offer(event);
    return event;
  }

  /**
   * Keeps the windows within their bytes: the oldest event of all goes, then the next, as a watch
   * cache too small for its objects would lose them (a resume from before gets 410 and relists).
   */
  private trimHistories(): void {
    let total = 0;
    for (const t of this.tables.values()) total += t.history.bytes;
    while (total > this.historyBytes) {
      let oldest: ResourceTable | undefined;
      for (const t of this.tables.values()) {
        const rv = t.history.oldestRv;
        if (rv !== undefined && (oldest === undefined || rv < oldest.history.oldestRv!)) oldest = t;
      }
      if (!oldest) return;
      total -= oldest.history.bytes;
      oldest.history.dropOldest();
      total += oldest.history.bytes;
    }
  }

  /** The periodic compaction's own write: the revision moves on with no object changed. Answers the new RV. */
  advanceRevision(): number {
    return ++this.rv;
  }

  /** Lists before `rv` are gone from now on (never moves back). */
  compactStorage(rv: number): void {
    this.storageCompactedRv = Math.max(this.storageCompactedRv, Math.min(rv, this.rv));
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

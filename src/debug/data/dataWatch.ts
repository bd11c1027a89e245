import { basename } from 'node:path';
import type { CacheChange, CacheDelta, CacheView, CallSite, ReconcileRecord, WriteRecord } from '../../runtime/index.ts';
import { splitKey } from '../../shared/keys.ts';
import type { DataBreakpointSet, FieldChange } from './dataBreakpoints.ts';
import { deleteIdentity, isDeletionEvent, isObjectDelete, objectIdentity, sameObject, uidOf } from './deletedObjects.ts';

// Follows the controller's cache for changes of watched fields and says which reconcile each
// belongs to: the one whose write made it (its answer carried the change's resourceVersion; a
// delete, answered without one, made the deletion event of the object it named), or,
// for a change made by anyone else (a scenario, kubectl, another controller), the first reconcile
// it triggered. The controller's informers are the eyes: a field of a kind it does not watch is
// never seen. Changes are kept with their reconcile, so a recorded reconcile shows them too and
// Reverse Continue finds the previous one.

export interface AttributedChange extends FieldChange {
  /** The reconcile's own write that made the change; absent: made outside this controller. */
  write?: { index: number; record: WriteRecord };
  /** Made outside and triggered no reconcile (an event filter, a kind only read): shown on the latest one. */
  untriggered?: boolean;
  /** Why it triggered none (`filtered by predicate managed (For)`), when the session knows. */
  untriggeredWhy?: string;
}

/** What the runtime does with an attributed change: stop there, when nothing else holds the session. */
export interface DataWatchStop {
  record: ReconcileRecord;
  changes: AttributedChange[];
  /** The reconcile is held at the gate (an outside change's); false: it ran (its write made it). */
  live: boolean;
}

const MAX_WRITES_KEPT = 20_000;

/** A reconcile's write (`write`: from its held message, while the reconcile still runs). */
interface Writer {
  record: ReconcileRecord;
  index: number;
  write?: WriteRecord;
}

export class DataWatch {
  private readonly breakpoints: DataBreakpointSet;
  /** Changes nobody has claimed yet: the writer's end or the triggered reconcile is still to come. */
  private pending: FieldChange[] = [];
  /**
   * Pending changes whose triggered reconcile went ahead while other reconciles ran: one of those
   * may be the writer (its end will say), so the change is called outside only once none runs.
   */
  private readonly triggered = new Map<FieldChange, ReconcileRecord>();
  /** resourceVersion a write answered with → the reconcile and the write. */
  private readonly writers = new Map<string, Writer>();
  /** Deletes whose deletion event is still to come, by the object (see objectIdentity). */
  private readonly deleters = new Map<string, Writer>();
  /** Recent deletion events (see isDeletionEvent), resourceVersion → the object's uid: a delete's may come before the delete's message. */
  private readonly deletions = new Map<string, string | undefined>();
  /** Deletes matched to their event already (`seq#index`): a reconcile's end does not wait for it again. */
  private readonly matchedDeletes = new Set<string>();
  private readonly byRecord = new Map<number, AttributedChange[]>();
  /** The initial list is not a change: watching starts once the caches synced. */
  private watching = false;
  /** The last delta of the initial list (rebuild skips up to it). */
  private syncedSeq = 0;

  constructor(breakpoints: DataBreakpointSet) {
    this.breakpoints = breakpoints;
  }

  synced(cacheSeq = 0): void {
    this.watching = true;
    this.syncedSeq = cacheSeq;
  }

  /**
   * The breakpoints changed: what each reconcile made or was triggered by is worked out again from
   * the cache's kept history, so Reverse Continue finds changes from before the breakpoint was set.
   * A change no reconcile has seen yet waits for its writer or trigger, as a new one would.
   */
  rebuild(history: Iterable<CacheChange>, records: readonly ReconcileRecord[]): void {
    this.byRecord.clear();
    this.pending = [];
    this.triggered.clear();
    if (!this.watching || this.breakpoints.size === 0) return;
    const seen = records.reduce((max, r) => Math.max(max, r.cacheSeq), 0);
    for (const h of history) {
      if (h.seq <= this.syncedSeq) continue;
      const changes = this.breakpoints.changes(h, h.previous, h.type === 'DELETED' ? undefined : h.object, false);
      if (changes.length === 0) continue;
      const writer = this.writers.get(h.resourceVersion);
      const triggered = writer ? undefined : records.find((r) => r.trigger.some((t) => t.kind.toLowerCase() === h.kind.toLowerCase() && t.key === h.key && t.resourceVersion === h.resourceVersion));
      if (writer) this.attribute(writer.record, changes, writer.index, false, writer.write);
      else if (triggered) this.attribute(triggered, changes, undefined, false);
      else if (h.seq > seen) this.pending.push(...changes);
    }
    for (const list of this.byRecord.values()) list.sort((a, b) => a.deltaSeq - b.deltaSeq);
  }

  /** A cache delta arrived (`before`: the cache just before it). A write's change stops at once when its writer ended. */
  delta(delta: CacheDelta, before: CacheView): DataWatchStop | undefined {
    if (!this.watching || this.breakpoints.size === 0) return undefined;
    this.deleteEvent(delta);
    const { namespace, name } = splitKey(delta.key);
    const previous = before.get(delta.kind, namespace, name);
    const changes = this.breakpoints.changes(delta, previous, delta.type === 'DELETED' ? undefined : delta.object);
    if (changes.length === 0) return undefined;
    const writer = this.writers.get(delta.resourceVersion);
    if (writer) return this.attribute(writer.record, changes, writer.index, false, writer.write);
    this.pending.push(...changes);
    return undefined;
  }

  /**
   * A running reconcile's write was acknowledged (a Go program under a line debugger says so while
   * the write waits): it claims the pending changes it made now, and the delta still to come stops
   * at once (see delta).
   */
  written(record: ReconcileRecord, index: number, write: WriteRecord): DataWatchStop | undefined {
    if (isObjectDelete(write)) return this.deleted({ record, index, write });
    if (!write.resourceVersion) return undefined;
    this.writers.set(write.resourceVersion, { record, index, write });
    const mine = this.claim((c) => c.resourceVersion === write.resourceVersion);
    return mine.length > 0 ? this.attribute(record, mine, index, false, write) : undefined;
  }

  /**
   * A reconcile ended: its writes claim the pending changes they made. `othersRunning`: other
   * reconciles still run (not counting those held at the gate).
   */
  reconcileEnded(record: ReconcileRecord, othersRunning: boolean): DataWatchStop | undefined {
    let stop: DataWatchStop | undefined;
    record.writes.forEach((w, index) => {
      if (isObjectDelete(w) && !this.matchedDeletes.has(`${record.seq}#${index}`)) stop ??= this.deleted({ record, index });
      if (!w.resourceVersion) return;
      this.writers.set(w.resourceVersion, { record, index });
      const mine = this.claim((c) => c.resourceVersion === w.resourceVersion);
      if (mine.length > 0) stop ??= this.attribute(record, mine, index, false);
    });
    if (this.writers.size > MAX_WRITES_KEPT) for (const rv of [...this.writers.keys()].slice(0, this.writers.size - MAX_WRITES_KEPT)) this.writers.delete(rv);
    if (!othersRunning) {
      // No writer is left to claim them: the deferred changes were outside, shown on the reconcile they triggered (it ran).
      for (const triggered of new Set(this.triggered.values())) {
        const mine = this.claim((c) => this.triggered.get(c) === triggered);
        if (mine.length > 0) stop ??= this.attribute(triggered, mine, undefined, false);
      }
    }
    return stop;
  }

  /**
   * A reconcile waits at the gate: the outside changes among its triggers stop it. While other
   * reconciles run, one of them may have written the change: the reconcile goes ahead, and the
   * change waits for their ends (see reconcileEnded).
   */
  gate(record: ReconcileRecord, othersRunning: boolean): DataWatchStop | undefined {
    const triggers = (c: FieldChange) => record.trigger.some((t) => t.kind.toLowerCase() === c.kind.toLowerCase() && t.key === c.key && t.resourceVersion === c.resourceVersion);
    if (othersRunning) {
      for (const c of this.pending) if (!this.triggered.has(c) && triggers(c)) this.triggered.set(c, record);
      return undefined;
    }
    const mine = this.claim(triggers);
    if (mine.length === 0) return undefined;
    return this.attribute(record, mine, undefined, true);
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /**
   * The controller went quiet and outside changes triggered nothing: they are shown on the latest
   * reconcile, so the session still stops for them.
   */
  untriggered(latest: ReconcileRecord, whyNot: (c: FieldChange) => string | undefined = () => undefined): DataWatchStop | undefined {
    if (this.pending.length === 0) return undefined;
    const changes = this.claim(() => true).map((c) => {
      const why = whyNot(c);
      return { ...c, untriggered: true, ...(why ? { untriggeredWhy: why } : {}) };
    });
    this.byRecord.set(latest.seq, [...this.changesOf(latest), ...changes]);
    return { record: latest, changes, live: false };
  }

  /** The watched changes a reconcile made or was triggered by. */
  changesOf(record: ReconcileRecord): AttributedChange[] {
    return this.byRecord.get(record.seq) ?? [];
  }

  /**
   * A delete of one object (no resourceVersion in its answer): it claims the pending deletion of
   * that object, or waits for its deletion event (see deleteEvent).
   */
  private deleted(writer: Writer): DataWatchStop | undefined {
    const write = writer.write ?? (writer.record.writes[writer.index] as WriteRecord);
    const identity = deleteIdentity(write);
    const mine = this.claim((c) => this.deletions.has(c.resourceVersion) && objectIdentity(c.kind, c.key) === identity && sameObject(write, this.deletions.get(c.resourceVersion)));
    if (mine.length === 0) {
      this.deleters.set(identity, writer);
      return undefined;
    }
    this.matched(writer, mine[0]?.resourceVersion as string);
    return this.attribute(writer.record, mine, writer.index, false, writer.write);
  }

  /** An event of an object a delete may wait for: its deletion event is the delete's (by resourceVersion from now on, for rebuild). */
  private deleteEvent(delta: CacheDelta): void {
    const deletion = isDeletionEvent(delta);
    if (deletion) {
      this.deletions.set(delta.resourceVersion, uidOf(delta.object));
      if (this.deletions.size > MAX_WRITES_KEPT) this.deletions.delete(this.deletions.keys().next().value as string);
    }
    const identity = objectIdentity(delta.kind, delta.key);
    const writer = this.deleters.get(identity);
    if (!writer) return;
    // Another event first (the object is back), or another object's: the delete's event never came; this one is not it.
    this.deleters.delete(identity);
    const write = writer.write ?? (writer.record.writes[writer.index] as WriteRecord);
    if (deletion && sameObject(write, uidOf(delta.object))) this.matched(writer, delta.resourceVersion);
  }

  private matched(writer: Writer, resourceVersion: string): void {
    this.writers.set(resourceVersion, writer);
    this.matchedDeletes.add(`${writer.record.seq}#${writer.index}`);
    if (this.matchedDeletes.size > MAX_WRITES_KEPT) this.matchedDeletes.delete(this.matchedDeletes.values().next().value as string);
  }

  /** Takes the pending changes that `which` picks off the list. */
  private claim(which: (c: FieldChange) => boolean): FieldChange[] {
    const mine = this.pending.filter(which);
    this.pending = this.pending.filter((c) => !mine.includes(c));
    for (const c of mine) this.triggered.delete(c);
    return mine;
  }

  /** `written`: the write itself, while the reconcile runs (its record lists writes once it ended). */
  private attribute(record: ReconcileRecord, changes: FieldChange[], writeIndex: number | undefined, live: boolean, written?: WriteRecord): DataWatchStop {
    const write = writeIndex === undefined ? undefined : { index: writeIndex, record: written ?? (record.writes[writeIndex] as WriteRecord) };
    const attributed = changes.map((c) => ({ ...c, write }));
    this.byRecord.set(record.seq, [...this.changesOf(record), ...attributed]);
    return { record, changes: attributed, live };
  }
}

/** The stop's one line: `ConfigMap default/app .data.mode: "on" → "off" (rv 42), by this reconcile's update #1`. */
export function describeChange(c: AttributedChange): string {
  const at = c.write?.record.caller ? ` at ${callSiteText(c.write.record.caller)}` : '';
  const by = c.write
    ? `by this reconcile's ${c.write.record.verb}${at} (write ${c.write.index + 1})`
    : c.untriggered
      ? `outside the controller; it triggered no reconcile${untriggeredText(c)} (this is the latest one)`
      : 'outside the controller; this reconcile is the one it triggered';
  return `${c.kind} ${c.key} ${c.field}: ${show(c.before)} → ${show(c.after)} (rv ${c.resourceVersion}), ${by}`;
}

/** `: filtered by predicate managed (For); \`why Deployment default/web@12\``: why an outside change triggered no reconcile, and the question that answers in full. */
export function untriggeredText(c: AttributedChange): string {
  return c.untriggeredWhy ? `: ${c.untriggeredWhy}; \`why ${c.kind} ${c.key}@${c.resourceVersion}\`` : '';
}

/** `main.go:42`: the file's name and line (the full path is in the Data Breakpoint scope). */
export function callSiteText(site: CallSite): string {
  return `${basename(site.file)}:${site.line}`;
}

function show(v: unknown): string {
  return v === undefined ? 'unset' : JSON.stringify(v);
}

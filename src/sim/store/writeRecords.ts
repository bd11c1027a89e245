import type { HistoryEvent } from './history.ts';
import type { RequestContext, StoredObject, WriteRecord } from './types.ts';

// Who is told of each write, and what they are told. A commit is reported from inside the store's
// commit (ApiStore.commit → SimCluster), synchronously: after the new version is stored and queued
// for watchers (whose delivery waits for a later microtask), before the follow-up work the write
// causes and before the write call returns. The HTTP layer answers a write only after that call
// returns (and, with a state dir, once it is on disk), so a listener always runs before the
// client can read its answer, and before any watcher, the writer's own included, sees the event:
// the check engine can act right after a controller's k-th write, e.g. kill it before it learns
// that the write went through.
//
// A write that stores nothing (an update or patch that leaves the object as it was, a delete of an
// object already being deleted) commits nothing; it is reported, as `changed: false`, only to the
// listeners that ask, once the call returns (still before its answer).

export type WriteListener = (write: WriteRecord) => void;

export interface WriteListenerOptions {
  /** Also be told of writes that stored nothing (`changed: false`). */
  unchanged?: boolean;
}

/** The write an object's record is about: the object's own call, or the one that caused it. */
function origin(ctx: RequestContext): Pick<WriteRecord, 'verb' | 'subresource' | 'patchType' | 'user' | 'followUp' | 'client'> {
  const call = ctx.cause ?? ctx;
  const out: Pick<WriteRecord, 'verb' | 'subresource' | 'patchType' | 'user' | 'followUp' | 'client'> = {};
  if (call.write) {
    out.verb = call.write.verb;
    if (call.write.subresource) out.subresource = call.write.subresource;
    if (call.write.patchType) out.patchType = call.write.patchType;
  }
  if (call.user) out.user = call.user.username;
  if (ctx.cause) out.followUp = true;
  if (ctx.client) out.client = ctx.client;
  return out;
}

function placeOf(object: StoredObject): { namespace: string; name: string } {
  return { namespace: object.object.metadata.namespace ?? '', name: object.object.metadata.name ?? '' };
}

export class WriteListeners {
  private readonly listeners = new Map<WriteListener, boolean>();
  private askedForUnchanged = 0;
  /** The write calls' contexts that committed (kept only while someone asks about unchanged writes). */
  private readonly committed = new WeakSet<RequestContext>();

  add(listener: WriteListener, options: WriteListenerOptions = {}): () => void {
    const unchanged = options.unchanged === true;
    if (this.listeners.has(listener)) return () => this.remove(listener);
    this.listeners.set(listener, unchanged);
    if (unchanged) this.askedForUnchanged++;
    return () => this.remove(listener);
  }

  private remove(listener: WriteListener): void {
    const unchanged = this.listeners.get(listener);
    if (unchanged === undefined) return;
    this.listeners.delete(listener);
    if (unchanged) this.askedForUnchanged--;
  }

  /** A commit, with the context of the write that made it. */
  commit(group: string, resource: string, event: HistoryEvent, ctx: RequestContext): void {
    if (this.listeners.size === 0) return;
    if (this.askedForUnchanged > 0) this.committed.add(ctx);
    const record: WriteRecord = {
      type: event.type, group, resource, ...placeOf(event.object), key: event.key, object: event.object,
      resourceVersion: event.rv, changed: true, ...origin(ctx),
    };
    if (event.prev) record.previous = event.prev;
    for (const l of [...this.listeners.keys()]) l(record);
  }

  /** Whether anyone asks about writes that stored nothing (the caller then looks whether its call committed). */
  get wantUnchanged(): boolean {
    return this.askedForUnchanged > 0;
  }

  /** Whether a write call (by its context) committed anything itself. */
  didCommit(ctx: RequestContext): boolean {
    return this.committed.has(ctx);
  }

  /** A write call that stored nothing: `stored` is the object as it is (and stays). */
  unchanged(group: string, resource: string, key: string, stored: StoredObject, ctx: RequestContext): void {
    const record: WriteRecord = {
      type: 'MODIFIED', group, resource, ...placeOf(stored), key, object: stored, previous: stored,
      resourceVersion: stored.resourceVersion, changed: false, ...origin(ctx),
    };
    for (const [l, unchanged] of [...this.listeners]) if (unchanged) l(record);
  }
}

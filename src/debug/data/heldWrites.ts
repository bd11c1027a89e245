import type { CacheDelta, ReconcileRecord, WriteRecord } from '../../runtime/index.ts';
import { deleteIdentity, isDeletionEvent, isObjectDelete, objectIdentity, sameObject, uidOf } from './deletedObjects.ts';

// A Go program under a line debugger holds each acknowledged write of a reconcile in its client
// call until the session has seen it. Only the write's cache event says whether it changed a
// watched field, so a write that may have waits for that event (briefly: an informer that never
// delivers it must not hold the controller), then goes on — or becomes the stop's.

/** A write waiting in its client call. */
export interface HeldWrite {
  record: ReconcileRecord;
  index: number;
  write: WriteRecord;
  /** The goroutine waiting in the client call. */
  goroutine: number;
  /** Lets it go on (once; later calls do nothing). */
  release: () => void;
}

type DeltaSeen = Pick<CacheDelta, 'type' | 'kind' | 'key' | 'resourceVersion' | 'object'>;

/** How long a write that may change a watched field waits for its cache event. */
export const WRITE_EVENT_WAIT_MS = 2000;

/**
 * Held writes until their cache event arrives: by the resourceVersion their answer carried, a
 * delete (answered without one) by the object it deleted, whose deletion event it waits for.
 */
export class HeldWrites {
  private readonly waiting = new Map<string, { held: HeldWrite; timer: NodeJS.Timeout }>();
  /** Recent cache events (as eventKey names them): a write's event may arrive before the write's message. */
  private readonly recent = new Set<string>();

  /** A cache event arrived (before the data watch looks at it). */
  sawEvent(delta: DeltaSeen): void {
    const deleted = deletedKey(objectIdentity(delta.kind, delta.key));
    // The object is back: an older deletion of it is no longer the event of a delete to come.
    if (isDeletionEvent(delta)) this.remember(deleted);
    else this.recent.delete(deleted);
    this.remember(delta.resourceVersion);
  }

  /** Whether the write's event has arrived already. */
  seen(write: WriteRecord): boolean {
    return this.recent.has(eventKey(write));
  }

  /** Waits for the write's event; released after WRITE_EVENT_WAIT_MS if it does not come. */
  wait(held: HeldWrite): void {
    const key = eventKey(held.write);
    this.take(key)?.release();
    const timer = setTimeout(() => this.take(key)?.release(), WRITE_EVENT_WAIT_MS);
    timer.unref();
    this.waiting.set(key, { held, timer });
  }

  /** The write waiting for this event, no longer waiting. */
  takeFor(delta: DeltaSeen): HeldWrite | undefined {
    const byVersion = this.take(delta.resourceVersion);
    if (byVersion || !isDeletionEvent(delta)) return byVersion;
    const key = deletedKey(objectIdentity(delta.kind, delta.key));
    // Another object of that name (another uid): the delete waits on for its own.
    const waiting = this.waiting.get(key);
    return waiting && sameObject(waiting.held.write, uidOf(delta.object)) ? this.take(key) : undefined;
  }

  /** Every waiting write goes on (the session ends). */
  releaseAll(): void {
    for (const key of [...this.waiting.keys()]) this.take(key)?.release();
  }

  private take(key: string): HeldWrite | undefined {
    const entry = this.waiting.get(key);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.waiting.delete(key);
    return entry.held;
  }

  private remember(key: string): void {
    this.recent.delete(key);
    this.recent.add(key);
    if (this.recent.size > 1000) this.recent.delete(this.recent.values().next().value as string);
  }
}

/** What a held write's event is known by: its resourceVersion, or for a delete the object it deleted. */
function eventKey(write: WriteRecord): string {
  return isObjectDelete(write) ? deletedKey(deleteIdentity(write)) : (write.resourceVersion as string);
}

/** resourceVersions are numbers: a deleted object's key cannot be mistaken for one. */
function deletedKey(identity: string): string {
  return `deleted ${identity}`;
}

import type { ReconcileRecord, WriteRecord } from '../../runtime/index.ts';

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

/** How long a write that may change a watched field waits for its cache event. */
export const WRITE_EVENT_WAIT_MS = 2000;

/** Held writes by the resourceVersion their answer carried, until their cache event arrives. */
export class HeldWrites {
  private readonly byResourceVersion = new Map<string, { held: HeldWrite; timer: NodeJS.Timeout }>();
  /** resourceVersions of recent cache events: a write's event may arrive before the write's message. */
  private readonly recent = new Set<string>();

  /** A cache event arrived (before the data watch looks at it). */
  sawEvent(resourceVersion: string): void {
    this.recent.add(resourceVersion);
    if (this.recent.size > 1000) this.recent.delete(this.recent.values().next().value as string);
  }

  /** Whether the event of a write answered with resourceVersion has arrived already. */
  seen(resourceVersion: string): boolean {
    return this.recent.has(resourceVersion);
  }

  /** Waits for the write's event; released after WRITE_EVENT_WAIT_MS if it does not come. */
  wait(held: HeldWrite): void {
    const rv = held.write.resourceVersion as string;
    const timer = setTimeout(() => this.take(rv)?.release(), WRITE_EVENT_WAIT_MS);
    timer.unref();
    this.byResourceVersion.set(rv, { held, timer });
  }

  /** The write waiting for this event, no longer waiting. */
  take(resourceVersion: string): HeldWrite | undefined {
    const entry = this.byResourceVersion.get(resourceVersion);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.byResourceVersion.delete(resourceVersion);
    return entry.held;
  }

  /** Every waiting write goes on (the session ends). */
  releaseAll(): void {
    for (const rv of [...this.byResourceVersion.keys()]) this.take(rv)?.release();
  }
}

import type { ControllerSession, ReconcileRecord } from '../../runtime/index.ts';
import { DataBreakpointSet, type DataBreakpoint, type DataBreakpointOrigin, type DataBreakpointSpec } from './dataBreakpoints.ts';
import { DataWatch, describeChange, type AttributedChange, type DataWatchStop } from './dataWatch.ts';
import { HeldWrites, type HeldWrite } from './heldWrites.ts';
import { untriggeredReason } from './untriggeredReason.ts';
import { deleteIdentity, isObjectDelete, objectIdentity, writeKey } from './deletedObjects.ts';

// Data breakpoints in a debug session: follows the controller's session (sync, cache deltas,
// reconcile ends), decides where a change of a watched field stops, and hands that to the
// reconcile runtime, which owns stopping. The runtime asks it at the gate and on Reverse Continue.

/** What it needs from the reconcile runtime. */
export interface DataStopHost {
  /** Stopped, or a replay that must not stop yet: a change is kept, not stopped at. */
  busy(): boolean;
  /** Reconciles held at the gate (they do not run). */
  held(): ReconcileRecord[];
  /** Stop for this change: at the reconcile whose write made it, or the one it is shown on. */
  stopAt(stop: DataStop): void;
  print(text: string): void;
}

export interface DataStop {
  record: ReconcileRecord;
  live: boolean;
  breakpointId: number;
  description: string;
  change: AttributedChange;
  /** The write that made the change waits in its client call (a Go program under a line debugger). */
  heldWrite?: HeldWrite;
}

/** How long a quiet controller has to reconcile after an outside change of a watched field. */
const UNTRIGGERED_AFTER_MS = 1000;

export class DataStops {
  private readonly breakpoints: DataBreakpointSet;
  private readonly watch: DataWatch;
  private readonly host: DataStopHost;
  private session: ControllerSession | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly heldWrites = new HeldWrites();

  constructor(newId: () => number, host: DataStopHost) {
    this.breakpoints = new DataBreakpointSet(newId);
    this.watch = new DataWatch(this.breakpoints);
    this.host = host;
  }

  set(origin: DataBreakpointOrigin, specs: DataBreakpointSpec[]): DataBreakpoint[] {
    const set = this.breakpoints.set(origin, specs);
    if (this.session) this.watch.rebuild(this.session.cache.changes(), this.session.recorder.all());
    this.warnUnwatched();
    return set;
  }

  /** Subscribe before the runtime's own handlers: a write's stop comes before an error stop on the same reconcile. */
  follow(session: ControllerSession): void {
    this.session = session;
    session.on('synced', () => {
      this.watch.synced(session.cache.seq);
      this.warnUnwatched();
    });
    session.on('delta', ({ delta }) => {
      this.heldWrites.sawEvent(delta);
      this.stop(this.watch.delta(delta, session.cache.at(delta.seq - 1)), this.heldWrites.takeFor(delta));
      if (this.watch.hasPending) this.awaitTrigger(session);
    });
    session.on('write', ({ record, index, write, goroutine }) => {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        session.writeSeen(record, index);
      };
      this.written({ record, index, write, goroutine, release });
    });
    session.on('reconcileEnd', ({ record }) => this.stop(this.watch.reconcileEnded(record, this.othersRunning(record))));
  }

  /** A reconcile at the gate: the outside change it was triggered by, if any (claimed whatever else stops there). */
  atGate(record: ReconcileRecord): Omit<DataStop, 'record' | 'live'> | undefined {
    const [change] = this.watch.gate(record, this.othersRunning(record))?.changes ?? [];
    return change && { breakpointId: change.breakpointId, description: describeChange(change), change };
  }

  /** Reverse Continue: a recorded reconcile that made or was triggered by a watched change (its latest one). */
  recorded(record: ReconcileRecord): DataStop | undefined {
    const change = this.watch.changesOf(record).at(-1);
    return change && { record, live: false, breakpointId: change.breakpointId, description: describeChange(change), change };
  }

  changesOf(record: ReconcileRecord): AttributedChange[] {
    return this.watch.changesOf(record);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.heldWrites.releaseAll();
  }

  /**
   * A write waits in its client call: it goes on at once unless it may have changed a watched
   * field; then it stops there once its cache event shows it did, or goes on when it did not.
   */
  private written(held: HeldWrite): void {
    const { write } = held;
    const answered = write.resourceVersion !== undefined || isObjectDelete(write);
    if (!answered || write.error || write.changed === false || !this.breakpoints.watches(write.kind, writeKey(write))) return held.release();
    const found = this.watch.written(held.record, held.index, write);
    if (found) return this.stop(found, held);
    // Its event came first and changed no watched field.
    if (this.heldWrites.seen(write)) return held.release();
    this.heldWrites.wait(held);
  }

  /** `held`: a write waiting for this stop's change; it goes on unless the stop is its own. */
  private stop(found: DataWatchStop | undefined, held?: HeldWrite): void {
    const [change] = found?.changes ?? [];
    if (!found || !change || this.host.busy()) return held?.release();
    const heldWrite = held && madeBy(change, held.write) ? held : undefined;
    if (held && !heldWrite) held.release();
    this.host.stopAt({ record: found.record, live: found.live, breakpointId: change.breakpointId, description: describeChange(change), change, heldWrite });
  }

  /** Reconciles other than `record` that run now (those held at the gate do not). */
  private othersRunning(record: ReconcileRecord): boolean {
    const held = this.host.held();
    return (this.session?.inFlight() ?? []).some((r) => r !== record && !held.includes(r));
  }

  /**
   * An outside change waits for the reconcile it triggers; if the controller is quiet a moment
   * later (an event filter dropped it, or it only reads that kind), the session stops for it anyway.
   * A key failing in backoff keeps a controller from ever being idle, so quiet counts it as done.
   */
  private awaitTrigger(session: ControllerSession): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.watch.hasPending) return;
      const latest = session.recorder.latest();
      // Quiet: idle, or only retries of failing keys and resyncs ahead (none of them is this change's).
      const quiet = session.idle || session.settled;
      if (this.host.busy() || !quiet || this.host.held().length > 0 || !latest) return this.awaitTrigger(session);
      this.stop(this.watch.untriggered(latest, (c) => untriggeredReason(session.why({ kind: c.kind, key: c.key, resourceVersion: c.resourceVersion }))));
    }, UNTRIGGERED_AFTER_MS);
    this.timer.unref();
  }

  /** A data breakpoint on a kind no informer of the controller watches never sees a change: say so. */
  private warnUnwatched(): void {
    const shapes = this.session?.controllers ?? [];
    if (shapes.length === 0) return;
    const kinds = shapes.flatMap((c) => [c.forKind, ...c.owns, ...c.watches].map((k) => k.kind));
    for (const bp of this.breakpoints.unwatched(kinds)) {
      this.host.print(`Data breakpoint "${bp.spec.text}": the controller watches no such kind (${[...new Set(kinds)].join(', ')}), so it never sees this field change.\n`);
    }
  }
}

/** The change is the write's: its answer's resourceVersion, or for a delete a change of its object (its deletion event's, see HeldWrites). */
function madeBy(change: AttributedChange, write: HeldWrite['write']): boolean {
  if (isObjectDelete(write)) return objectIdentity(change.kind, change.key) === deleteIdentity(write);
  return change.resourceVersion === write.resourceVersion;
}

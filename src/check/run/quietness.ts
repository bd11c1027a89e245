import type { ControllerSession } from '../../runtime/index.ts';
import type { ControllerWrites } from './controllerWrites.ts';

// When a run is over: the controller is quiet — nothing queued or running, no key due within
// QUIET_WAIT_MS (a requeueAfter further off is a timer, not work) unless its last reconcile
// started after the cluster last changed and wrote nothing (a controller that polls every second
// has then polled everything there is), nothing queued in the simulated
// cluster's own controllers (--workloads), no reconcile ended and nothing written for END_QUIET_MS
// — it has caught up with the cluster (every watch it had is open and has sent everything: nothing
// withheld, held for coalescing or still to relist), the scenario has nothing left, and neither
// have the cluster's own controllers within QUIET_WAIT_MS (a Pod about to start). While the
// controller is quiet for JUMP_QUIET_MS and caught up, the scenario's clock jumps to what it has
// next: a step of the scenario, or the end of a wait of the cluster's own controllers (they run on
// the same clock), whichever comes first, so the order of events stays as real time would have
// it. Once the scenario is done, the cluster's waits are still jumped to until AFTER_SCENARIO_MS
// of its clock have passed: a run does not end on a Job whose Pod happens to be still running —
// real time moves the clock on too, and a run slowed by a restart would have seen it complete. An early jump only shortens a wait the controller was not part of, which a correct
// controller does not mind, but an early end would read an end state the controller had not
// finished, so the end waits longer. A jump waits for the controller to catch up (a lag to end)
// so that a lag does not also fold the scenario's changes into one, except where the perturbation
// itself waits for the next change (a relist across changes, a coalesced change).

// A controller that wrote one object WRITE_LOOP times in a row, nobody else writing it between,
// is in a write loop (it answers its own writes): the run ends there, not quiet, rather than at its
// deadline. A controller that has that much to write about one object on its own is rare; one
// that writes a time or a counter on every reconcile of what it watches does it within a second.
const WRITE_LOOP = 40;

/**
 * A run at its deadline that wrote an object it had not written before within this long is still
 * working through its list (a drain), not looping: it is given more time, while that lasts.
 */
export const DRAIN_WINDOW_MS = 3000;

/** A controller still working through new objects: how many it first wrote within `windowMs`, and how many keys it has queued or running. */
export interface Drain {
  newObjects: number;
  windowMs: number;
  queued: number;
}

/** How much of the scenario's clock after its last step the cluster's own waits are jumped over. */
const AFTER_SCENARIO_MS = 60_000;
const JUMP_QUIET_MS = 100;
const END_QUIET_MS = 400;
const QUIET_WAIT_MS = 2000;
const POLL_MS = 20;
/**
 * A retry a perturbation made the controller owe (a conflict on a cache it held back) is waited
 * for when it is due within this long of the perturbation's letting go; one further off is left.
 */
const OWED_RETRY_WAIT_MS = 30_000;

export interface QuietSubject {
  /** The controller's session, once it has synced (undefined while it starts or restarts). */
  session(): ControllerSession | undefined;
  writes: ControllerWrites;
  /** Every watch the controller had is open and has sent everything it holds. */
  caughtUp(): boolean;
  /** Why it has not caught up, in words (undefined: it has, or not known). */
  notCaughtUpBecause?(): string | undefined;
  /**
   * The simulated cluster's own controllers (--workloads) have work queued, or (withinMs > 0) a
   * wait on the scenario's clock ending within `withinMs` (a Pod about to start).
   */
  clusterBusy(withinMs: number): boolean;
  /** A perturbation holds a change back until the next one comes: the scenario goes on meanwhile. */
  awaitingChange(): boolean;
  /**
   * Called when the controller is idle (keys may wait on a timer) but has not caught up: the
   * perturbation lets go of what it holds once that has served its purpose (a lag the controller acted on; once the scenario is
   * done, a change that is not coming). Answers true when it did.
   */
  letGo(scenarioDone: boolean): boolean;
  /** The scenario has run its last step. */
  scenarioDone(): boolean;
  /**
   * The key's last reconcile asked to be run again after a delay, wrote nothing, and started after
   * anyone last changed the cluster: polling it again soon is a timer, not work left to do.
   */
  polledSinceLastChange(key: string): boolean;
  /** Moves the scenario's clock on to what it has next: a step, or a wait of the cluster's own controllers ending. */
  jumpScenario(): void;
  /** The scenario's clock (ms): real time plus its jumps. */
  scenarioClock(): number;
  /** When (performance.now()) the key's last finished reconcile started. */
  lastStartOf(key: string): number | undefined;
  /**
   * Nothing more can come of the run: an unperturbed run whose controller failed (the check
   * reports that failure whatever follows, and a controller restarted after each crash would
   * otherwise keep the run busy until its budget ran out).
   */
  failedForGood?(): boolean;
}

export class Quietness {
  private lastActivity = performance.now();
  /** The scenario's clock when its last step was seen done. */
  private scenarioDoneAt: number | undefined;
  private readonly subject: QuietSubject;
  /** Keys waiting on a backoff when a perturbation let go (their readyAt then): their failure came from a view held back. */
  private readonly owedRetries = new Map<string, number>();
  /** The perturbation let go and the controller has not been caught up since. */
  private releasePending = false;
  /** When the controller was first caught up after the perturbation last let go. */
  private caughtUpAfterRelease = -Infinity;
  /** What kept it from being quiet when settle gave up at its deadline (see notQuietBecause). */
  private blockedBy: string | undefined;
  /** The last settle ran out of time while the controller drained (not a write loop, which ends it sooner). */
  stillDraining: Drain | undefined;

  constructor(subject: QuietSubject) {
    this.subject = subject;
  }

  /**
   * The perturbation let go of what it held (by its own timer too): a key that failed on the view
   * held back, however often (a create refused AlreadyExists, ten times while a restarted
   * controller's cache lagged, puts its retry 2.5 s off), has not acted on the cluster as it is
   * until it is retried after the controller caught up. A cache read only by reconciles (no source
   * watches its kind) enqueues nothing when it catches up: that retry is the only one coming.
   */
  released(): void {
    this.releasePending = true;
  }

  /** Something happened that keeps the run from being over (a reconcile, a restart, a fault). */
  touch(): void {
    this.lastActivity = performance.now();
  }

  /**
   * Nothing running or queued for `forMs` (keys waiting to be retried allowed): the controller has
   * done what it would do with what it was shown.
   */
  controllerIdle(forMs: number): boolean {
    const s = this.subject.session();
    if (!s || !s.running || s.inFlight().length > 0) return false;
    const q = s.queue;
    if (q.depth > 0 || q.processing > 0 || q.omitted || q.keys.some((k) => k.state !== 'waiting')) return false;
    return performance.now() - this.lastActivity >= forMs;
  }

  controllerQuiet(forMs: number): boolean {
    const s = this.subject.session();
    if (!s || !s.running) return false;
    if (s.inFlight().length > 0) return false;
    const q = s.queue;
    if (q.depth > 0 || q.processing > 0 || q.omitted) return false;
    const now = Date.now();
    if (q.keys.some((k) => k.state !== 'waiting' || ((k.readyAt ?? 0) - now < QUIET_WAIT_MS && !(k.reason === 'after' && this.subject.polledSinceLastChange(k.key))))) return false;
    if (this.owesRetry(q.keys)) return false;
    // The cluster's own work under way; what it waits for (a Pod about to start) is jumped to.
    if (this.subject.clusterBusy(0)) return false;
    return performance.now() - this.lastActivity >= forMs && this.subject.writes.sinceLastControllerWrite() >= forMs;
  }

  /**
   * Resolves true once the controller is quiet and caught up and the scenario done, false at
   * `deadline` (performance.now() time) or once it is in a write loop — a controller that never
   * goes quiet. A controller still draining at `deadline` (see `draining`) goes on until it
   * stops or `drainBound` comes.
   */
  async settle(deadline: number, drainBound = deadline): Promise<boolean> {
    for (;;) {
      if (this.subject.failedForGood?.()) return false;
      if (this.subject.writes.longestWriteRun.writes >= WRITE_LOOP) {
        this.stillDraining = undefined;
        return false;
      }
      if (this.releasePending && this.subject.caughtUp()) {
        this.releasePending = false;
        this.caughtUpAfterRelease = performance.now();
      }
      // A lag ends once the controller has acted on it, even with keys waiting to retry (on a cache
      // that has caught up by then); so, once the scenario is done, does a change held for one that
      // is not coming: a controller that polls (requeueAfter within QUIET_WAIT_MS) for what it is
      // not shown would never be quiet, and the change would stay withheld until the deadline.
      if (this.controllerIdle(JUMP_QUIET_MS) && !this.subject.caughtUp() && this.letGo(this.scenarioDone())) this.touch();
      else if (this.controllerQuiet(JUMP_QUIET_MS)) {
        const done = this.scenarioDone();
        if (!this.subject.caughtUp()) {
          if (this.letGo(done)) this.touch();
          else if (!done && this.subject.awaitingChange()) this.jump();
        } else if (!done || this.subject.clusterBusy(this.clusterHorizon())) this.jump();
        else if (this.controllerQuiet(END_QUIET_MS)) return true;
      }
      if (performance.now() >= deadline) {
        const drain = this.draining();
        if (!drain || performance.now() >= drainBound) {
          this.stillDraining = drain;
          this.blockedBy = drain ? undefined : this.notQuietNow();
          return false;
        }
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /**
   * What kept the controller from being quiet when settle last gave up at its deadline, in words,
   * when it was not its queue or its writes (a finding says those itself).
   */
  get notQuietBecause(): string | undefined {
    return this.blockedBy;
  }

  private notQuietNow(): string | undefined {
    const s = this.subject.session();
    if (!s || !s.running) return 'it had not synced since it was last started';
    const running = s.inFlight()[0];
    if (running) return `its reconcile of ${running.key} was still running`;
    const q = s.queue;
    if (q.depth > 0 || q.processing > 0 || q.omitted || q.keys.some((k) => k.state !== 'waiting')) return undefined;
    if (this.subject.clusterBusy(0)) return "the cluster's own controllers still had work queued";
    // Idle, and not caught up: the run waited on a watch, not on the controller.
    return this.subject.caughtUp() ? undefined : `it was idle, but ${this.subject.notCaughtUpBecause?.() ?? 'its watches had not caught up'}`;
  }

  /**
   * The controller writes objects it had not written yet (DRAIN_WINDOW_MS): a long list worked
   * through (ten thousand children at fifty reconciles a second), not a loop, which writes the
   * same objects again. Undefined when it does not.
   */
  draining(): Drain | undefined {
    const newObjects = this.subject.writes.newObjectsWithin(DRAIN_WINDOW_MS);
    if (newObjects === 0) return undefined;
    const q = this.subject.session()?.queue;
    return { newObjects, windowMs: DRAIN_WINDOW_MS, queued: q ? q.depth + q.processing : 0 };
  }

  /**
   * Asks the perturbation to let go. A key then waiting on a backoff failed on the view it held
   * back (an update refused with a conflict, its cache behind): it has not yet acted on the cluster
   * as it is, and a controller whose predicates drop the event that lets it see its own write
   * (GenerationChangedPredicate and a status write) only does so on that retry, however far off
   * the failures before it put it.
   */
  private letGo(scenarioDone: boolean): boolean {
    if (!this.subject.letGo(scenarioDone)) return false;
    const s = this.subject.session();
    const horizon = Date.now() + OWED_RETRY_WAIT_MS;
    for (const k of s?.queue.keys ?? []) {
      if (k.state === 'waiting' && k.reason === 'backoff' && k.readyAt !== undefined && k.readyAt <= horizon) this.owedRetries.set(k.key, k.readyAt);
    }
    return true;
  }

  /** A key owed a retry (see letGo) still waits for it; those retried since are forgotten. */
  private owesRetry(keys: readonly { key: string; state: string; readyAt?: number; reason?: string }[]): boolean {
    const horizon = Date.now() + OWED_RETRY_WAIT_MS;
    const failedBeforeCaughtUp = (key: string) => this.releasePending || (this.subject.lastStartOf(key) ?? -Infinity) < this.caughtUpAfterRelease;
    if (keys.some((k) => k.state === 'waiting' && k.reason === 'backoff' && k.readyAt !== undefined && k.readyAt <= horizon && failedBeforeCaughtUp(k.key))) return true;
    for (const [key, readyAt] of this.owedRetries) {
      if (keys.some((k) => k.key === key && k.state === 'waiting' && k.readyAt === readyAt)) return true;
      this.owedRetries.delete(key);
    }
    return false;
  }

  private scenarioDone(): boolean {
    const done = this.subject.scenarioDone();
    if (done) this.scenarioDoneAt ??= this.subject.scenarioClock();
    return done;
  }

  /** How far ahead (ms) a wait of the cluster's own controllers is jumped to rather than left. */
  private clusterHorizon(): number {
    const now = this.subject.scenarioClock();
    return Math.max(QUIET_WAIT_MS, (this.scenarioDoneAt ?? now) + AFTER_SCENARIO_MS - now);
  }

  private jump(): void {
    this.subject.jumpScenario();
    this.touch();
  }
}

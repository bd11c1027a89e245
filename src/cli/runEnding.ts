import { notStartedHint, type ControllerSession, type InformerErrors, type LaunchedSim, type QueueKeyState } from '../runtime/index.ts';
import type { RunTally } from './runTally.ts';

// When `controller-lab run` stops, and with which exit code: --until-idle once nothing is left to
// do, --timeout (counted from the end of the build), a kind the cluster does not serve once the
// scenario can no longer install it, a controller that failed or exited.

/** The order keys are named in while a run waits: what runs, then what is queued, then what waits to retry. */
const STATE_ORDER: Record<QueueKeyState, number> = { processing: 0, queued: 1, waiting: 2 };

const IDLE_SETTLE_MS = 300;
/** How long a run waits for its informers to sync before it says what it is waiting for (once). */
export const SYNC_NOTICE_MS = 15_000;
/**
 * How long an unserved kind may stay unserved once the scenario ended: longer than
 * controller-runtime's 10 s between tries, so a CRD the controller installs itself is seen.
 */
export const UNSERVED_GRACE_MS = 12_000;

export interface RunEndingOptions {
  session: ControllerSession;
  sim: LaunchedSim | undefined;
  tally: RunTally;
  informerErrors: InformerErrors;
  untilIdle: boolean;
  /** Says, while the controller has not started, where it is likely stuck. */
  language: 'go' | 'typescript';
  complain: (line: string) => void;
}

export class RunEnding {
  /** Resolves with the exit code. */
  readonly finished: Promise<number>;
  /** The run has ended: what the controller does from now on is no news. */
  ended = false;
  private synced = false;
  /** A controller said it started (a Go program does so from mgr.Start). */
  private ready = false;
  private loaded = false;
  private settle: ReturnType<typeof setTimeout> | undefined;
  private unservedTimer: ReturnType<typeof setTimeout> | undefined;
  private resolve!: (code: number) => void;
  private readonly o: RunEndingOptions;

  constructor(o: RunEndingOptions) {
    this.o = o;
    this.finished = new Promise((resolve) => (this.resolve = resolve));
    const s = o.session;
    s.on('synced', () => {
      this.synced = true;
      o.sim?.startScenario();
      this.checkIdle();
    });
    s.on('ready', () => (this.ready = true));
    s.on('loaded', () => (this.loaded = true));
    s.on('idle', () => this.checkIdle());
    s.on('probe', () => this.checkUnserved());
    void o.sim?.scenarioDone.then(
      () => {
        this.checkIdle();
        this.checkUnserved();
      },
      (err: Error) => {
        o.complain(`scenario: ${err.message}`);
        this.end(1);
      },
    );
  }

  end(code: number): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.settle);
    clearTimeout(this.unservedTimer);
    this.resolve(code);
  }

  /** Gives up after `seconds` (exit 1), saying what it was still waiting for. */
  giveUpAfter(seconds: number): void {
    setTimeout(() => {
      if (this.ended) return;
      // Without --until-idle a run never ends on its own: --timeout is its end, not a stuck controller.
      if (!this.o.untilIdle && this.isIdle()) {
        this.o.complain(`stopped after ${seconds} s (--timeout); the controller was idle: --until-idle ends a run as soon as it is, with exit 0`);
        this.end(1);
        return;
      }
      this.o.complain(`gave up after ${seconds} s (not idle: ${this.waitingFor()})`);
      // A reconcile still running is the likeliest reason: say which, and for how long.
      for (const r of this.o.session.inFlight().slice(0, 10)) {
        this.o.complain(`  reconcile #${r.seq} ${r.forKind.kind} ${r.key} has been running ${((Date.now() - r.startedAt) / 1000).toFixed(1)} s`);
      }
      this.end(1);
    }, seconds * 1000).unref();
  }

  /**
   * Says once, after SYNC_NOTICE_MS, what the run waits for when its informers have not synced:
   * without --timeout a run would otherwise wait in silence for good.
   */
  noticeSlowSync(afterMs = SYNC_NOTICE_MS): void {
    setTimeout(() => {
      if (this.ended || this.synced) return;
      this.o.complain(`still waiting after ${Math.round(afterMs / 1000)} s: ${this.waitingFor()}`);
    }, afterMs).unref();
  }

  /** What the run still waits for, in a few words. */
  waitingFor(): string {
    if (!this.synced) {
      const failing = [...this.o.informerErrors.failing()].map(([informer, message]) => `${informer}: ${message}`);
      if (failing.length) return `the informers have not synced — ${failing.join('; ')}`;
      return this.ready ? 'the informers have not synced' : `the informers have not synced: ${notStartedHint(this.o.language, this.loaded)}`;
    }
    if (!(this.o.sim?.scenarioFinished() ?? true)) return 'scenario running';
    const q = this.o.session.queue;
    // What runs first: it is what the run waits on; what is queued waits behind it.
    const shown = [...q.keys].sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state]).slice(0, 10).map((k) => `${k.key} ${k.state}`);
    const more = q.depth + q.processing + q.waiting - shown.length;
    return shown.length ? `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}` : 'a reconcile is running';
  }

  /** Synced, the scenario done, nothing queued or running but retries of failing keys. */
  private isIdle(): boolean {
    return this.synced && this.o.session.settled && (this.o.sim?.scenarioFinished() ?? true);
  }

  private checkIdle(): void {
    clearTimeout(this.settle);
    const { session, sim, tally } = this.o;
    if (!this.o.untilIdle || !this.synced || !session.settled || !(sim?.scenarioFinished() ?? true)) return;
    this.settle = setTimeout(() => {
      if (!session.settled) return;
      const failing = tally.failingReport();
      const problems = tally.problemsReport();
      if (failing) this.o.complain(`stopped with ${failing}`);
      else if (problems) this.o.complain(`every key reconciled, but ${problems}`);
      this.end(tally.clean ? 0 : 1);
    }, IDLE_SETTLE_MS);
  }

  /**
   * With --until-idle, a watched kind that is not served when the scenario has ended can only be
   * installed by the controller itself: after a grace period the run stops instead of waiting for
   * controller-runtime's two-minute cache sync timeout.
   */
  private checkUnserved(): void {
    const unserved = this.o.informerErrors.unserved;
    if (!this.o.untilIdle || this.unservedTimer || unserved.size === 0 || !(this.o.sim?.scenarioFinished() ?? true)) return;
    this.unservedTimer = setTimeout(() => {
      this.unservedTimer = undefined;
      if (this.ended || unserved.size === 0) return;
      this.o.complain(`stopped: the controller cannot sync while the cluster does not serve ${[...unserved.keys()].join(', ')} (said above)`);
      this.end(1);
    }, UNSERVED_GRACE_MS);
    this.unservedTimer.unref();
  }
}

import type { KubeObject } from '../../shared/k8s.ts';
import { launchSim, notStartedHint, type ControllerSession, type LaunchedSim, type OutputTail, type ReconcileRecord } from '../../runtime/index.ts';
import type { Plan } from '../plans/plan.ts';
import type { ControllerUnderCheck } from './controllerUnderCheck.ts';
import { ControllerWrites, type CommittedWrite, type PointNamer } from './controllerWrites.ts';
import { endState } from './endState.ts';
import { jitterSeed } from './jitterSeed.ts';
import { JumpingClock } from './jumpingClock.ts';
import { Perturbation, type AppliedStep } from './perturbation.ts';
import { Quietness, type Drain } from './quietness.ts';
import { WatchCoverage } from './watchCoverage.ts';

// One run of a check: a fresh simulated cluster seeded by the scenario, the controller started
// against it (as its own user), the scenario stepped as fast as the controller settles, the plan's
// perturbation applied at its point, then — once the controller is quiet — the end state read.
// A reference run (no plan) also reconciles every key again once quiet, and keeps what the
// controller wrote then: a correct controller writes nothing.

export interface RunSpec {
  controller: ControllerUnderCheck;
  scenario: string;
  workloads: boolean;
  namer: PointNamer;
  /** How long the run may take before the controller counts as never quiet. */
  budgetMs: number;
  /**
   * Until when (performance.now()) a controller still draining at the end of `budgetMs` (writing
   * objects it had not written yet) is given more time: the check's own budget.
   */
  drainUntil?: number;
  plan?: Plan;
  /** Reconcile every key again once quiet (reference runs). */
  resyncWhenQuiet: boolean;
  /**
   * Resolves when the run may go on once its controller has synced (inOrder's turn): until then it
   * waits, ready, before its scenario starts. Default: at once.
   */
  turn?: () => Promise<void>;
  /** The resourceVersion the run's cluster starts after (default 0). */
  resourceVersionsAfter?: number;
  /**
   * Once quiet, how long the controller's process must stay up before the run ends (reference
   * runs): a manager's start-up error (its webhook server's, say) may reach its exit only after a
   * loaded machine's run went quiet, and a run that ended first would count the process healthy.
   */
  staysUpMs?: number;
}

/** A reconcile, with which start of the controller ran it (a crash plan restarts it: 1, 2…). */
export interface TracedReconcile {
  incarnation: number;
  record: ReconcileRecord;
  /** The process was killed while it ran: the record holds what it did until then. */
  killed?: true;
}

export interface RunResult {
  endState: KubeObject[];
  reconciles: TracedReconcile[];
  writes: CommittedWrite[];
  /** The resources the controller watched (`plural` or `plural.group`). */
  watched: Set<string>;
  /** The controller's writes after the resync of a quiet controller (resyncWhenQuiet). */
  resyncWrites: CommittedWrite[];
  /** The controller and the scenario settled within the budget. */
  quiet: boolean;
  /** Not quiet: what it waited on at the end, when not the controller's queue or writes. */
  notQuietBecause?: string;
  /** Not quiet, and still writing objects it had not written yet when its time ran out: a slow drain, not a loop. */
  draining?: Drain;
  /** When the run ended, on the clock of its writes' `atMs`. */
  endedAtMs?: number;
  /** What the plan did, step by step, and when (empty without one). */
  applied: AppliedStep[];
  /** A plan whose point never came (the write or change did not happen in this run). */
  planMissed: boolean;
  /** A step of the plan that could not be done: the run proves nothing. */
  planError?: string;
  /** Failures of the controller's process that were not the plan's doing. */
  failures: string[];
  /** The last lines the failed process printed (check shows no controller output otherwise). */
  failedOutput?: OutputTail;
  durationMs: number;
}

export async function runOnce(spec: RunSpec): Promise<RunResult> {
  let started = performance.now();
  const clock = new JumpingClock();
  // The workload controllers' waits (a Pod's start delay) are on the scenario's clock too: the
  // clock jumps over them while the controller is quiet, as it does between the scenario's steps.
  const sim = await launchSim({ scenario: spec.scenario, workloads: spec.workloads, scenarioClock: clock, workloadClock: clock, resourceVersionsAfter: spec.resourceVersionsAfter ?? 0 });
  spec.controller.admit(sim.cluster);
  const writes = new ControllerWrites(sim.cluster, spec.controller.user, spec.namer);
  const run = new RunningController(spec, sim, writes, clock);
  const coverage = new WatchCoverage(sim.cluster, spec.controller.user, () => quietness.touch(), () => run.synced?.handled);
  const quietness = new Quietness({
    session: () => run.synced,
    writes,
    caughtUp: () => coverage.caughtUp(),
    notCaughtUpBecause: () => coverage.notCaughtUp(),
    clusterBusy: (withinMs) => sim.cluster.workloadsBusy(withinMs),
    awaitingChange: () => perturbation?.awaitingChange() ?? false,
    letGo: (scenarioDone) => perturbation?.letGo(scenarioDone) ?? false,
    scenarioDone: () => sim.scenarioFinished(),
    jumpScenario: () => clock.jump(),
    scenarioClock: () => clock.now(),
    polledSinceLastChange: (key) => run.polledSinceLastChange(key, writes.sinceLastStateWrite()),
    lastStartOf: (key) => run.lastStartOf(key),
    failedForGood: () => spec.plan === undefined && run.failures.length > 0,
  });
  run.onActivity = () => quietness.touch();
  run.onSynced = () => coverage.processSynced();
  const perturbation = spec.plan ? new Perturbation(spec.plan, { sim, writes, controllerUser: spec.controller.user, restart: (o) => run.restart(o), resync: () => run.current?.resync(), touch: () => quietness.touch(), released: () => quietness.released() }) : undefined;
  let resyncWrites: CommittedWrite[] = [];
  try {
    if (!(await run.start())) return run.failedResult(started);
    // Ready: the time waited for a turn is not the run's (its budget, its duration).
    const ready = performance.now();
    await spec.turn?.();
    started += performance.now() - ready;
    const deadline = started + spec.budgetMs;
    const drainBound = Math.max(deadline, spec.drainUntil ?? deadline);
    // The scenario's steps count from a running controller, not from however long start-up took.
    sim.startScenario();
    quietness.touch();
    let quiet = await quietness.settle(deadline, drainBound);
    // A perturbation that arms itself late (a resync once quiet) may leave more to settle.
    if (quiet && perturbation?.onQuiet()) quiet = await quietness.settle(deadline, drainBound);
    if (quiet && spec.resyncWhenQuiet) {
      // A controller that stamps the time at a second's precision (metav1.Time) writes the same
      // stamp again within the second it last wrote it: the resync waits for the next second.
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
      const before = writes.byController.length;
      run.current?.resync();
      quietness.touch();
      quiet = await quietness.settle(deadline, drainBound);
      resyncWrites = writes.byController.slice(before);
    }
    // The wait is not the run's: a perturbed run, which does not wait, takes as long as the rest.
    const durationMs = performance.now() - started;
    if (quiet && spec.staysUpMs) await run.staysUp(spec.staysUpMs);
    return {
      endState: endState(sim.cluster),
      reconciles: run.reconciles,
      writes: writes.all,
      watched: coverage.watchedResources(),
      resyncWrites,
      quiet,
      ...(quiet || !quietness.notQuietBecause ? {} : { notQuietBecause: quietness.notQuietBecause }),
      ...(quiet ? {} : drained(quietness.stillDraining)),
      endedAtMs: writes.elapsedMs(),
      applied: perturbation?.applied ?? [],
      planMissed: perturbation ? !perturbation.reached : false,
      ...(perturbation?.error ? { planError: perturbation.error } : {}),
      // As the run ended: stopping the process below is no failure of the controller's.
      failures: [...run.failures],
      ...(run.failedOutput ? { failedOutput: run.failedOutput } : {}),
      durationMs,
    };
  } finally {
    clock.stop();
    coverage.close();
    perturbation?.dispose();
    writes.close();
    await run.stop();
    await sim.stop();
  }
}

function drained(draining: Drain | undefined): { draining?: Drain } {
  return draining ? { draining } : {};
}

/** A reconcile that only its own requeue brought about (no watch event). */
function isPoll(record: ReconcileRecord): boolean {
  return record.trigger.length > 0 && record.trigger.every((t) => t.via === 'requeue');
}

/** How long a started controller may take to sync its caches before the run fails. */
const SYNC_TIMEOUT_MS = 60_000;

/** The controller's sessions within one run: the first, and one per restart a plan makes. */
class RunningController {
  current: ControllerSession | undefined;
  /** The current session once it has synced (undefined while it starts or restarts). */
  synced: ControllerSession | undefined;
  readonly reconciles: TracedReconcile[] = [];
  readonly failures: string[] = [];
  /** Per key, its last finished reconcile and when (performance.now()) it started. */
  private readonly lastOfKey = new Map<string, { record: ReconcileRecord; startedAt: number }>();
  failedOutput: OutputTail | undefined;
  onActivity: () => void = () => {};
  /** Called when a session (the first, or one started again) has synced. */
  onSynced: () => void = () => {};
  private incarnation = 0;
  private readonly spec: RunSpec;
  private readonly sim: LaunchedSim;
  private readonly writes: ControllerWrites;
  /** Stands still while a restarted controller starts (see JumpingClock). */
  private readonly scenarioClock: JumpingClock;
  private readonly stopped: ControllerSession[] = [];
  /** Called when the current process fails (staysUp's wait ends early). */
  private onFailure: () => void = () => {};

  constructor(spec: RunSpec, sim: LaunchedSim, writes: ControllerWrites, scenarioClock: JumpingClock) {
    this.spec = spec;
    this.sim = sim;
    this.writes = writes;
    this.scenarioClock = scenarioClock;
  }

  /** Starts a session; resolves false when it could not start or sync (its failure is kept). */
  async start(kubeconfig = this.sim.kubeconfigPath): Promise<boolean> {
    const incarnation = ++this.incarnation;
    const session = this.spec.controller.session(kubeconfig, this.spec.plan && jitterSeed(this.spec.plan, incarnation));
    this.current = session;
    this.synced = undefined;
    const informerErrors = new Map<string, string>();
    let ready = false;
    let loaded = false;
    session.on('ready', () => (ready = true));
    session.on('loaded', () => (loaded = true));
    session.on('probe', ({ probe }) => {
      if (probe.kind === 'error') informerErrors.set(probe.informer, probe.message);
    });
    const synced = new Promise<boolean>((settle) => {
      // However the start ends, its timer goes: a pending one would keep the CLI alive for a minute.
      const resolve = (ok: boolean) => {
        clearTimeout(timer);
        settle(ok);
      };
      const timer = setTimeout(() => {
        const why = [...informerErrors].map(([informer, message]) => `${informer}: ${message}`).join('; ') || (ready ? '' : notStartedHint(this.spec.controller.target.language, loaded));
        this.failures.push(`the controller did not sync within ${SYNC_TIMEOUT_MS / 1000} s${why ? ` (${why})` : ''}`);
        resolve(false);
      }, SYNC_TIMEOUT_MS);
      session.on('synced', () => {
        if (this.current === session) {
          this.synced = session;
          this.onSynced();
        }
        resolve(true);
      });
      let failed = false;
      session.on('fatal', ({ phase, message }) => {
        if (this.current === session) {
          failed = true;
          this.failures.push(`${phase}: ${message}`);
          this.failedOutput = session.outputTail;
          this.onFailure();
        }
        resolve(false);
      });
      session.on('exit', ({ code, signal }) => {
        // A fatal failure said already why it exited.
        if (this.current === session && code !== 0 && !failed) {
          this.failures.push(`the controller exited (${signal ?? `code ${code}`})`);
          this.failedOutput = session.outputTail;
          this.onFailure();
        }
        resolve(false);
      });
    });
    // A poll (its own timer brought the key back) is activity only once it writes or stops polling.
    session.on('reconcileStart', ({ record }) => {
      if (!isPoll(record)) this.onActivity();
    });
    session.on('reconcileEnd', ({ record }) => {
      this.reconciles.push({ incarnation, record });
      this.lastOfKey.set(record.key, { record, startedAt: performance.now() - (record.durationMs ?? 0) });
      if (!isPoll(record) || record.writes.length > 0 || record.decision?.action !== 'addAfter') this.onActivity();
    });
    if (!(await session.start())) return false;
    return synced;
  }

  /**
   * Kills the controller (SIGKILL, as `kill -9`) and starts it again, optionally first arming what
   * the new process meets (a stale view of the cluster). Called synchronously from a write's commit.
   */
  restart(options: { beforeStart?: () => void; afterSync?: () => void } = {}): void {
    const old = this.current;
    if (old) {
      // The reconciles the kill cuts short end nowhere else: a crash finding shows where it struck.
      for (const record of old.inFlight()) this.reconciles.push({ incarnation: this.incarnation, record: structuredClone(record), killed: true });
      this.current = undefined;
      this.synced = undefined;
      old.kill();
      this.stopped.push(old);
    }
    options.beforeStart?.();
    this.onActivity();
    this.scenarioClock.hold();
    void this.start().then((ok) => {
      this.scenarioClock.release();
      if (ok) options.afterSync?.();
      else if (this.failures.length === 0) this.failures.push('the controller did not start again after the restart');
    });
  }

  /** Resolves after `ms`, or as soon as the current process fails. */
  staysUp(ms: number): Promise<void> {
    if (this.failures.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.onFailure = () => {};
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.onFailure = done;
    });
  }

  /** When (performance.now()) the key's last finished reconcile started. */
  lastStartOf(key: string): number | undefined {
    return this.lastOfKey.get(key)?.startedAt;
  }

  /** The key's last reconcile asked for a delay, wrote nothing, and started `sinceChangeMs` or less ago. */
  polledSinceLastChange(key: string, sinceChangeMs: number): boolean {
    const last = this.lastOfKey.get(key);
    if (!last || last.record.decision?.action !== 'addAfter' || last.record.writes.length > 0) return false;
    return performance.now() - last.startedAt < sinceChangeMs;
  }

  failedResult(started: number): RunResult {
    return { endState: [], reconciles: this.reconciles, writes: this.writes.all, watched: new Set(), resyncWrites: [], quiet: false, applied: [], planMissed: false, failures: this.failures.length ? this.failures : ['the controller did not start'], ...(this.failedOutput ? { failedOutput: this.failedOutput } : {}), durationMs: performance.now() - started };
  }

  async stop(): Promise<void> {
    await Promise.all([...this.stopped, ...(this.current ? [this.current] : [])].map((s) => s.stop().catch(() => {})));
  }
}

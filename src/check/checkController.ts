import { Oracle, varyingExamples } from './oracle/index.ts';
import type { Drain } from './run/quietness.ts';
import { endStateFinding, neverQuietFinding, referenceCourse, resyncFinding } from './findings/judge.ts';
import type { Finding } from './findings/finding.ts';
import { attribute } from './findings/attribution.ts';
import { mostRemade, recreatedFinding } from './findings/recreated.ts';
import type { Plan } from './plans/plan.ts';
import { planRuns } from './plans/planner.ts';
import { ControllerUnderCheck } from './run/controllerUnderCheck.ts';
import { byGenerateNamePrefix, renamePoints, type PointNamer } from './run/controllerWrites.ts';
import { runOnce, type RunResult } from './run/checkRun.ts';
import { failingKeys, type FailingKey } from './run/failingKeys.ts';
import { inOrder } from './run/inOrder.ts';
import { goExitHint } from '../runtime/index.ts';

// `controller-lab check`: reference runs of the scenario learn what a correct run ends with and
// what varies between runs; then runs with one perturbation each, chosen from the reference's
// writes and changes, are judged against them, until the plans or the budget run out.

export interface CheckOptions {
  program: string;
  args?: string[];
  cwd?: string;
  scenario: string;
  workloads: boolean;
  as?: string;
  /** The whole check's time (ms): no run starts that could not end within it. */
  budgetMs: number;
  /** Runs at a time (default RUNS_AT_ONCE): each has its own simulated cluster and controller process. */
  runsAtOnce?: number;
  /** Replay this plan only (after the reference runs). */
  plan?: Plan;
  /** The command that replays a plan, for each finding. */
  replayCommand(plan: Plan): string;
  /** Stops the check between runs: what was found so far is reported (`cancelled`). */
  signal?: AbortSignal;
}

export type CheckEvent =
  | { type: 'built' }
  | { type: 'reference'; run: number; quiet: boolean; durationMs: number; reconciles: number; writes: number; failing: FailingKey[] }
  | { type: 'planned'; plans: number; varying: number; varyingExamples?: string[] }
  /** `finding`: what the run found, which may be an earlier run's finding again (the same end state). */
  /** `own`: the run's own finding, when `finding` is an earlier one it reproduces. */
  | { type: 'run'; done: number; planned: number; plan: Plan; finding?: Finding; own?: Finding; missed: boolean; error?: string; durationMs: number }
  | { type: 'finding'; finding: Finding }
  /**
   * At the end: the check's findings, each bug once with the perturbation that explains it most
   * simply; `announced[i]` is the finding the i-th announced one (a `finding` event) is now reported within.
   */
  | { type: 'attributed'; announced: Finding[]; findings: Finding[] };

export interface CheckReport {
  findings: Finding[];
  runs: number;
  /** Perturbations planned, and those the budget left out. */
  planned: number;
  skipped: number;
  durationMs: number;
  /** Stopped through `signal` before every planned run was made. */
  cancelled?: boolean;
}

/** A program that does not build, a scenario that does not load: bad input, exit code 2. */
export class CheckInputError extends Error {}

const REFERENCE_RUNS = 2;
/**
 * How far apart the reference runs' resourceVersions start: a value a controller derived from a
 * resourceVersion (the version of a Secret it last synced, kept in an annotation) depends on how
 * many writes came first, so it must vary between the references, or a perturbed run that wrote
 * more or less would differ in it.
 */
const REFERENCE_VERSIONS_APART = 100_000;
/**
 * Four runs at once: a run mostly waits (for the controller to go quiet), so four take little
 * longer than one; the whole check, sim and controllers, keeps about a third of one core busy.
 */
export const RUNS_AT_ONCE = 4;
/**
 * Runs getting ready meanwhile (inOrder's warm pool): the next run's cluster and controller start,
 * and its caches sync, while the current runs wait out their end. A run cannot take over the last
 * run's process instead: a controller-runtime manager (or a TypeScript controller's informers) is
 * bound to the cluster it started against, and its caches, queue and memory would carry the last
 * run into the next, which would then not start as a fresh process does (what a crash plan
 * compares against). So the start is kept, and hidden.
 */
export const RUNS_AHEAD = 1;
/**
 * How long a reference run's process must stay up once quiet: a manager's start-up error (its
 * webhook server without certificates) has reached its exit 1–2 s late on a loaded machine. The
 * two reference runs wait at once, so a check takes this much longer, once.
 */
const REFERENCE_STAYS_UP_MS = 2000;
const MIN_RUN_BUDGET_MS = 20_000;
const MAX_RUN_BUDGET_MS = 120_000;

export async function checkController(options: CheckOptions, emit: (e: CheckEvent) => void = () => {}): Promise<CheckReport> {
  const started = performance.now();
  // The budget is the runs': a Go program's first build (minutes on a cold cache) is not taken from it.
  let budgetFrom = started;
  const left = () => options.budgetMs - (performance.now() - budgetFrom);
  // A run still draining (writing objects it had not written yet) goes on until the check's budget ends.
  const checkEnd = () => budgetFrom + options.budgetMs;
  const controller = new ControllerUnderCheck({ program: options.program, args: options.args, as: options.as, cwd: options.cwd });
  // Every run's finding, then each bug once (findings/attribution.ts). What progress lines said as
  // runs finished is said again at the end if a later, simpler run explains an earlier finding.
  const raw: Finding[] = [];
  const announced: Finding[] = [];
  let runs = 0;
  // The finding a run's progress line names: a new one, or one announced already that it reproduces.
  const found = (f: Finding | undefined): Finding | undefined => {
    if (!f) return undefined;
    raw.push(f);
    const { within } = attribute(raw);
    const earlier = announced.find((a) => within(a) === within(f));
    if (earlier) return earlier;
    announced.push(f);
    emit({ type: 'finding', finding: f });
    return f;
  };
  const report = (rest: Omit<CheckReport, 'findings'>): CheckReport => {
    const { findings, within } = attribute(raw);
    emit({ type: 'attributed', announced: announced.map((a) => within(a) ?? a), findings });
    return { findings, ...rest };
  };
  try {
    // Cancelled already: nothing is prepared, not even a look at the controller's path.
    options.signal?.throwIfAborted();
    const failure = await controller.prepare();
    if (failure !== undefined) throw new CheckInputError(failure);
    budgetFrom = performance.now();
    emit({ type: 'built' });

    const atOnce = options.runsAtOnce ?? RUNS_AT_ONCE;
    // Reference runs: unperturbed; each also reconciles every key again once quiet.
    const references: RunResult[] = [];
    const referenceBudget = Math.min(MAX_RUN_BUDGET_MS, Math.max(MIN_RUN_BUDGET_MS, left()));
    // Without its reference runs a check has nothing to report: a cancel during them throws.
    const referenceMayStart = () => {
      options.signal?.throwIfAborted();
      return true;
    };
    let i = 0;
    for await (const run of inOrder(REFERENCE_RUNS, atOnce, referenceMayStart, (n, turn) => runOnce({ controller, scenario: options.scenario, workloads: options.workloads, namer: byGenerateNamePrefix, budgetMs: referenceBudget, drainUntil: checkEnd(), resyncWhenQuiet: true, staysUpMs: REFERENCE_STAYS_UP_MS, turn, resourceVersionsAfter: n * REFERENCE_VERSIONS_APART }), RUNS_AHEAD)) {
      i++;
      runs++;
      emit({ type: 'reference', run: i, quiet: run.quiet, durationMs: run.durationMs, reconciles: run.reconciles.length, writes: run.writes.filter((w) => w.byController).length, failing: failingKeys(run.reconciles) });
      // Unperturbed, any failure of the process is the controller's, even one after it went quiet.
      if (run.failures.length) throw new Error(unperturbedFailure(run));
      if (!run.quiet && run.draining) throw new CheckInputError(slowDrain(run.draining));
      if (!run.quiet) {
        found(neverQuietFinding(run, undefined, options.replayCommand({ kind: 'resync-when-quiet' })));
        return report({ runs, planned: 0, skipped: 0, durationMs: performance.now() - started });
      }
      found(resyncFinding(run, options.replayCommand({ kind: 'resync-when-quiet' })));
      references.push(run);
    }
    const oracle = Oracle.learn(references.map((r) => r.endState));
    const namer: PointNamer = (o) => oracle.pointName(o);
    const varying = oracle.masks.unstableObjects.size + [...oracle.masks.unstablePaths.values()].reduce((n, s) => n + s.size, 0);

    const referenceWrites = renamePoints(references[0]!.writes, namer);
    const reference = referenceCourse(references[0]!, referenceWrites);
    const referenceRemade = mostRemade(references.map((r) => renamePoints(r.writes, namer)));
    const plans = options.plan ? [options.plan] : planRuns({ writes: referenceWrites, watched: references[0]!.watched });
    emit({ type: 'planned', plans: plans.length, varying, varyingExamples: varyingExamples(oracle.masks, 3) });
    const longest = Math.max(...references.map((r) => r.durationMs));
    // At least half again as long as a reference run that drained past MAX_RUN_BUDGET_MS took.
    const runBudget = Math.max(1.5 * longest, Math.min(MAX_RUN_BUDGET_MS, Math.max(MIN_RUN_BUDGET_MS, 4 * longest)));
    let done = 0;
    // A run takes about as long as a reference run; one that may not end within the budget does not start.
    const mayStart = () => !options.signal?.aborted && left() >= longest * 1.5;
    const perturbed = (plan: Plan, turn: () => Promise<void>) => runOnce({ controller, scenario: options.scenario, workloads: options.workloads, namer, budgetMs: runBudget, drainUntil: checkEnd(), resyncWhenQuiet: plan.kind === 'resync-when-quiet', turn, ...(plan.kind === 'resync-when-quiet' ? {} : { plan }) });
    for await (const run of inOrder(plans.length, atOnce, mayStart, (n, turn) => perturbed(plans[n]!, turn), RUNS_AHEAD)) {
      const plan = plans[done]!;
      const replay = options.replayCommand(plan);
      runs++;
      done++;
      let own: Finding | undefined;
      // Still working through new objects when the check's budget ended: what it would have come to is not known.
      const unjudged = !run.quiet && run.draining ? `${stillDraining(run.draining)} when the check's budget ran out: not judged` : undefined;
      if (unjudged) own = undefined;
      else if (plan.kind === 'resync-when-quiet') own = run.quiet ? resyncFinding(run, replay) : neverQuietFinding(run, undefined, replay);
      else if (!run.planMissed && !run.planError) own = run.quiet ? (endStateFinding(plan, run, oracle, replay, reference) ?? recreatedFinding(plan, run, replay, referenceRemade)) : neverQuietFinding(run, plan, replay);
      const finding = found(own);
      const missed = plan.kind !== 'resync-when-quiet' && run.planMissed;
      emit({ type: 'run', done, planned: plans.length, plan, finding, ...(own && own !== finding ? { own } : {}), missed, ...(run.planError || unjudged ? { error: run.planError ?? unjudged } : {}), durationMs: run.durationMs });
    }
    return report({ runs, planned: plans.length, skipped: plans.length - done, durationMs: performance.now() - started, ...(options.signal?.aborted ? { cancelled: true } : {}) });
  } finally {
    controller.dispose();
  }
}

/** `still working through new objects (140 written for the first time in the last 3 s, 9860 key(s) queued or running)` */
function stillDraining(d: Drain): string {
  return `still working through new objects (${d.newObjects} written for the first time in the last ${d.windowMs / 1000} s, ${d.queued} key(s) queued or running)`;
}

/**
 * An unperturbed run still draining when the check's budget ran out: a long list worked through at
 * the controller's pace, not a write loop (which writes the same objects again) — no finding, and
 * nothing to judge perturbed runs against.
 */
function slowDrain(d: Drain): string {
  return `the controller was ${stillDraining(d)} when the check's --budget ran out, unperturbed: a long list worked through, not a write loop. Give the check a longer --budget (each perturbed run takes about as long again), or a scenario with fewer objects`;
}

/**
 * Why a reference run failed. A check shows none of the controller's output, so its last lines
 * come along (a kubebuilder main's `Failed to run manager` error, a panic), read once the run is
 * over and the process's output is all in.
 */
function unperturbedFailure(run: RunResult): string {
  const said = run.failedOutput?.lines() ?? [];
  const failures = run.failures.join('; ');
  const hint = goExitHint(said.join('\n'));
  return [`the controller failed in an unperturbed run: ${failures}${hint && !failures.includes(hint) ? `; ${hint}` : ''}`, ...(said.length ? ['its last output:', ...said.map((l) => `  ${l}`)] : [])].join('\n');
}

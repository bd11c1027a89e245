import { Oracle } from './oracle/index.ts';
import { endStateFinding, neverQuietFinding, resyncFinding } from './findings/judge.ts';
import type { Finding } from './findings/finding.ts';
import { writeLabel, type Plan } from './plans/plan.ts';
import { planRuns } from './plans/planner.ts';
import { ControllerUnderCheck } from './run/controllerUnderCheck.ts';
import { byGenerateNamePrefix, renamePoints, type PointNamer } from './run/controllerWrites.ts';
import { runOnce, type RunResult } from './run/checkRun.ts';
import { inOrder } from './run/inOrder.ts';

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
  | { type: 'reference'; run: number; quiet: boolean; durationMs: number; reconciles: number; writes: number }
  | { type: 'planned'; plans: number; varying: number }
  /** `finding`: what the run found, which may be an earlier run's finding again (the same end state). */
  | { type: 'run'; done: number; planned: number; plan: Plan; finding?: Finding; missed: boolean; error?: string; durationMs: number }
  | { type: 'finding'; finding: Finding };

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
const MIN_RUN_BUDGET_MS = 20_000;
const MAX_RUN_BUDGET_MS = 120_000;

export async function checkController(options: CheckOptions, emit: (e: CheckEvent) => void = () => {}): Promise<CheckReport> {
  const started = performance.now();
  const left = () => options.budgetMs - (performance.now() - started);
  const controller = new ControllerUnderCheck({ program: options.program, args: options.args, as: options.as, cwd: options.cwd });
  const findings: Finding[] = [];
  let runs = 0;
  // A run that ends as an earlier one did is the same finding, not a new one; its progress line says so.
  const found = (f: Finding | undefined): Finding | undefined => {
    if (!f) return undefined;
    const earlier = findings.find((g) => g.class === f.class && g.diff === f.diff && f.diff !== '');
    if (earlier) return earlier;
    findings.push(f);
    emit({ type: 'finding', finding: f });
    return f;
  };
  try {
    const failure = await controller.prepare();
    if (failure !== undefined) throw new CheckInputError(failure);
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
    for await (const run of inOrder(REFERENCE_RUNS, atOnce, referenceMayStart, (_, turn) => runOnce({ controller, scenario: options.scenario, workloads: options.workloads, namer: byGenerateNamePrefix, budgetMs: referenceBudget, resyncWhenQuiet: true, turn }), RUNS_AHEAD)) {
      i++;
      runs++;
      emit({ type: 'reference', run: i, quiet: run.quiet, durationMs: run.durationMs, reconciles: run.reconciles.length, writes: run.writes.filter((w) => w.byController).length });
      if (run.failures.length && run.endState.length === 0) throw new Error(`the controller failed in an unperturbed run: ${run.failures.join('; ')}`);
      if (!run.quiet) {
        found(neverQuietFinding(run, undefined, options.replayCommand({ kind: 'resync-when-quiet' })));
        return { findings, runs, planned: 0, skipped: 0, durationMs: performance.now() - started };
      }
      found(resyncFinding(run, options.replayCommand({ kind: 'resync-when-quiet' })));
      references.push(run);
    }
    const oracle = Oracle.learn(references.map((r) => r.endState));
    const namer: PointNamer = (o) => oracle.pointName(o);
    const varying = oracle.masks.unstableObjects.size + [...oracle.masks.unstablePaths.values()].reduce((n, s) => n + s.size, 0);

    const plans = options.plan ? [options.plan] : planRuns({ writes: renamePoints(references[0]!.writes, namer), watched: references[0]!.watched });
    emit({ type: 'planned', plans: plans.length, varying });
    const longest = Math.max(...references.map((r) => r.durationMs));
    const runBudget = Math.min(MAX_RUN_BUDGET_MS, Math.max(MIN_RUN_BUDGET_MS, 4 * longest));
    let done = 0;
    // What killing the controller right after each write did (a finding or none), by the write.
    const crashes = new Map<string, Finding | undefined>();
    // A run takes about as long as a reference run; one that may not end within the budget does not start.
    const mayStart = () => !options.signal?.aborted && left() >= longest * 1.5;
    const perturbed = (plan: Plan, turn: () => Promise<void>) => runOnce({ controller, scenario: options.scenario, workloads: options.workloads, namer, budgetMs: runBudget, resyncWhenQuiet: plan.kind === 'resync-when-quiet', turn, ...(plan.kind === 'resync-when-quiet' ? {} : { plan }) });
    for await (const run of inOrder(plans.length, atOnce, mayStart, (n, turn) => perturbed(plans[n]!, turn), RUNS_AHEAD)) {
      const plan = plans[done]!;
      const replay = options.replayCommand(plan);
      if (plan.kind === 'resync-when-quiet') {
        runs++;
        done++;
        const finding = run.quiet ? found(resyncFinding(run, replay)) : found(neverQuietFinding(run, undefined, replay));
        emit({ type: 'run', done, planned: plans.length, plan, finding, missed: false, durationMs: run.durationMs });
        continue;
      }
      runs++;
      done++;
      let finding: Finding | undefined;
      if (!run.planMissed && !run.planError) {
        const raw = run.quiet ? endStateFinding(plan, run, oracle, replay) : neverQuietFinding(run, plan, replay);
        finding = found(restartedAlone(plan, raw, crashes) ?? raw);
        if (plan.kind === 'crash-after-write') crashes.set(writeLabel(plan.write), finding);
      }
      emit({ type: 'run', done, planned: plans.length, plan, finding, missed: run.planMissed, ...(run.planError ? { error: run.planError } : {}), durationMs: run.durationMs });
    }
    return { findings, runs, planned: plans.length, skipped: plans.length - done, durationMs: performance.now() - started, ...(options.signal?.aborted ? { cancelled: true } : {}) };
  } finally {
    controller.dispose();
  }
}

/**
 * A restart against an old cache is a crash and a stale cache at once. When the crash alone, at the
 * same write, already ended the same way, the crash is the cause: the finding is the crash's
 * (intermediate-state), not a stale-state one as well.
 */
export function restartedAlone(plan: Plan, finding: Finding | undefined, crashes: ReadonlyMap<string, Finding | undefined>): Finding | undefined {
  if (!finding || plan.kind !== 'stale-restart-after-write') return undefined;
  const crash = crashes.get(writeLabel(plan.write));
  return crash && sameObjects(crash, finding) ? crash : undefined;
}

/** The same objects differ, the same way (the same fields), whatever the values. */
function sameObjects(a: Finding, b: Finding): boolean {
  const shape = (f: Finding) => JSON.stringify(f.objects.map((o) => [o.id, o.change, (o.fields ?? []).map((x) => x.path)]).sort());
  return a.objects.length > 0 && shape(a) === shape(b);
}

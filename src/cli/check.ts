import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkController, CheckInputError, checkProgress, describeFinding, describePlan, describeReport, parsePlan, PlanError, replayCommand, reportJson, type CheckReport, type Plan } from '../check/index.ts';
import { readScenarioFile, ScenarioFileUnreadable } from '../sim/index.ts';
import { fileErrorInWords, unwritableReason } from './outputPath.ts';
import { parseCommandLine, UsageError } from './args.ts';
import { durationOption } from './units.ts';
import { onStopSignals, signalExitCode, type StopSignal } from './interruption.ts';
import { killEveryControllerGroup } from '../runtime/index.ts';
import { replayEnv } from './checkReplayEnv.ts';
import { programToRun } from './programToRun.ts';

// `controller-lab check PROGRAM --scenario F`: finds a controller's bugs on the simulated cluster.

const HELP = `usage: controller-lab check PROGRAM --scenario FILE [--workloads] [--as USER] [--json REPORT]
                            [--budget DURATION] [--plan PLAN | --replay REPORT:N] [-- GO PROGRAM ARGS…]

Finds the bugs that come from the watch model itself, as Sieve (OSDI'22) does on kind clusters, on
the simulated cluster in minutes. The scenario runs unperturbed (reference runs: what a correct run
ends with, and what varies between runs), then once per perturbation of what the controller sees,
chosen from the reference run's writes and changes; each run's end state is compared with the
references':
  stale-state         its informers lag its own writes; or, restarted, it lists a cache from before them
  intermediate-state  it is killed (kill -9) right after a write and started again
  unobserved-state    a change reaches it only with the next one; or it relists across changes
  not-idempotent      reconciled again once quiet, it writes; or it never goes quiet

PROGRAM is what \`controller-lab run\` takes: a TypeScript controller file, or a Go controller-runtime
program whose main calls controllerlab.Wrap(mgr) (a directory, main.go or a package path).
  --scenario FILE     the scenario every run starts from (required)
  --workloads         run the sim's workload controllers and fake Nodes
  --as USER           run the controller as USER (its RBAC applies), e.g. system:serviceaccount:NS:NAME
  --json REPORT       write the findings as JSON (docs/check.md: the schema)
  --budget DURATION   the whole check's time (default 5m); perturbations that do not fit are left out
  --plan PLAN         run this one perturbation (a finding's replay command gives it)
  --replay REPORT:N   run the perturbation of finding N (1-based) of a JSON report

Exit code: 0 with no finding, 1 with findings (or a controller that fails unperturbed), 2 for bad
input (arguments, a scenario that does not load, a program that does not build); 130/143 when
stopped by SIGINT (Ctrl-C)/SIGTERM: the runs under way finish and what they found is reported
(Ctrl-C twice: at once, no report).
`;

const DEFAULT_BUDGET_MS = 5 * 60_000;

export async function main(all: string[]): Promise<number> {
  const dashes = all.indexOf('--');
  const argv = dashes < 0 ? all : all.slice(0, dashes);
  const programArgs = dashes < 0 ? [] : all.slice(dashes + 1);
  let program: string;
  let scenario: string;
  let budgetMs: number;
  let plan: Plan | undefined;
  let values;
  try {
    const args = parseCommandLine(argv, {
      scenario: { type: 'string' },
      workloads: { type: 'boolean' },
      as: { type: 'string' },
      json: { type: 'string' },
      budget: { type: 'string' },
      plan: { type: 'string' },
      replay: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    values = args.values;
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    if (args.positionals.length !== 1) throw new UsageError('expected exactly one PROGRAM');
    if (!values.scenario) throw new UsageError('--scenario FILE is required: every run starts from it');
    if (values.plan && values.replay) throw new UsageError('--plan and --replay exclude each other');
    const named = programToRun(args.positionals[0]!);
    if (named.note) process.stdout.write(`${named.note}\n`);
    program = named.spec;
    scenario = values.scenario;
    budgetMs = values.budget ? durationOption('budget', values.budget) : DEFAULT_BUDGET_MS;
    plan = values.plan ? parsePlan(values.plan) : values.replay ? planOfFinding(values.replay) : undefined;
    // Every problem of the scenario now, before a program is built.
    await readScenarioFile(scenario);
    // And of the report's path: a check can take minutes, and its findings must not be lost at the end.
    const reportProblem = values.json === undefined ? undefined : unwritableReason(values.json);
    if (reportProblem) {
      process.stderr.write(`controller-lab check: --json ${values.json}: cannot write it: ${reportProblem}\n`);
      return 2;
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof PlanError) {
      process.stderr.write(`controller-lab check: ${err.message}\n\n${HELP}`);
      return 2;
    }
    if (err instanceof ScenarioFileUnreadable) {
      process.stderr.write(`controller-lab check: ${err.message}\n`);
      return 2;
    }
    throw err;
  }

  const given = { program, scenario, workloads: values.workloads === true, as: values.as, programArgs, env: replayEnv(program) };
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`check: ${program} from ${scenario}${plan ? `, replaying: ${describePlan(plan)}` : ''}`);
  let report: CheckReport;
  const progress = checkProgress();
  // Ctrl-C: no new run starts, the ones under way finish, and what was found so far is reported;
  // Ctrl-C again: at once.
  const cancel = new AbortController();
  let interrupted: StopSignal | undefined;
  const removeSignalHandlers = onStopSignals(
    (signal) => {
      interrupted = signal;
      process.stderr.write(`controller-lab check: ${signal}: finishing the runs under way, then reporting what was found (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again: at once)\n`);
      cancel.abort();
    },
    (signal) => {
      killEveryControllerGroup();
      process.stderr.write(`controller-lab check: stopped by ${signal} (forced): no report\n`);
      process.exit(signalExitCode(signal));
    },
  );
  try {
    report = await checkController(
      {
        program: resolveProgram(program),
        args: programArgs,
        scenario: resolve(scenario),
        workloads: given.workloads,
        ...(given.as ? { as: given.as } : {}),
        budgetMs,
        ...(plan ? { plan } : {}),
        replayCommand: (p) => replayCommand(given, p),
        signal: cancel.signal,
      },
      (e) => {
        const line = progress(e);
        if (line !== undefined) out(line);
      },
    );
  } catch (err) {
    if (interrupted) {
      process.stderr.write(`controller-lab check: stopped by ${interrupted} before the reference runs ended: nothing to report\n`);
      return signalExitCode(interrupted);
    }
    process.stderr.write(`controller-lab check: ${(err as Error).message}\n`);
    return err instanceof CheckInputError || /^scenario|\.ya?ml:\d+/.test((err as Error).message) ? 2 : 1;
  } finally {
    removeSignalHandlers();
  }
  report.findings.forEach((f, i) => out(`\n${describeFinding(f, i + 1)}`));
  let reportWritten = true;
  if (values.json) {
    try {
      writeFileSync(resolve(values.json), reportJson(report));
    } catch (err) {
      // The findings are printed above; the replay commands in them work without the file.
      process.stderr.write(`controller-lab check: --json ${values.json}: cannot write it: ${fileErrorInWords(err) ?? (err as Error).message}\n`);
      reportWritten = false;
    }
  }
  out(`\n${describeReport(report)}`);
  if (interrupted) {
    process.stderr.write(`controller-lab check: stopped by ${interrupted} after ${report.runs} run(s): the report above is partial\n`);
    return signalExitCode(interrupted);
  }
  return report.findings.length > 0 || !reportWritten ? 1 : 0;
}

/** A Go package path stays as it is; anything else is a path from here. */
function resolveProgram(program: string): string {
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+\//i.test(program) && !program.startsWith('.') ? program : resolve(program);
}

/** `report.json:2` → the plan of finding 2. */
function planOfFinding(spec: string): Plan {
  const at = spec.lastIndexOf(':');
  const file = at > 0 ? spec.slice(0, at) : spec;
  const n = at > 0 ? Number(spec.slice(at + 1)) : 1;
  let report: { findings?: { plan?: unknown }[] };
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as typeof report;
  } catch (err) {
    throw new UsageError(`--replay ${spec}: ${(err as Error).message}`);
  }
  const finding = report.findings?.[n - 1];
  if (!Number.isInteger(n) || n < 1 || !finding?.plan) throw new UsageError(`--replay ${spec}: the report has no finding ${n} (it has ${report.findings?.length ?? 0})`);
  return parsePlan(JSON.stringify(finding.plan));
}

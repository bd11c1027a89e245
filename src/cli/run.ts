import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ControllerSession, controllerTarget, formatWhy, killEveryControllerGroup, looksLikeGoPackagePath, launchSim, notAControllerFile, parseWhyTarget, type LaunchedSim, type WhyTarget } from '../runtime/index.ts';
import { describeObjectsProgress, ScenarioError, ScenarioFileUnreadable } from '../sim/index.ts';
import { fileErrorInWords, unwritableReason } from './outputPath.ts';
import { parseCommandLine, UsageError } from './args.ts';
import { programToRun } from './programToRun.ts';
import { cutShort, interruptedLine, onStopSignals, signalExitCode, type StopSignal } from './interruption.ts';
import { RunEnding } from './runEnding.ts';
import { reportSession, showBuildProgress, type RunOutput } from './runReport.ts';
import { RunTally } from './runTally.ts';

// `controller-lab run FILE`: runs a user controller (TypeScript, or a Go controller-runtime program
// built with `go build`) in a child process against the simulated
// cluster (--sim, optionally seeded and driven by --scenario) or a real one (--kubeconfig/--context),
// printing one line per reconcile; --trace writes them as JSON lines, --until-idle stops once there
// is nothing left to do.

const HELP = `usage: controller-lab run FILE [--sim [--scenario F] | --kubeconfig F [--context C]]
                          [--as USER] [--until-idle] [--trace OUT.jsonl] [--workers N]
                          [--reconcile-timeout MS] [--max-heap MB] [--timeout SECONDS] [--quiet]
                          [--connect-timeout SECONDS] [--why 'KIND NS/NAME[@RV]']…
                          [-- GO PROGRAM ARGS…]

Runs the controller FILE exports (export default defineController({ … })) in a child process.
FILE may also be a Go controller-runtime program whose main.go calls controllerlab.Wrap(mgr): a
.go file, its directory (./cmd in a kubebuilder project) or its package path; it is built with \`go build\` and run
with the arguments after \`--\`.
  --sim                 start a simulated cluster in this process (served over HTTPS)
  --scenario F          seed and drive the simulated cluster with a scenario (YAML)
  --workloads           run the sim's Deployment/ReplicaSet/StatefulSet/DaemonSet/Job controllers and fake Nodes
  --kubeconfig F        connect to a real cluster (default: $KUBECONFIG, ~/.kube/config)
  --context C           the kubeconfig context (default: current-context)
  --as USER             run the controller as USER (impersonation, as kubectl --as), e.g. its
                        ServiceAccount system:serviceaccount:NS:NAME: the cluster then allows it
                        only what that user's RBAC grants (apply your Roles and bindings first)
  --until-idle          exit once the queue is empty, nothing is scheduled and the scenario ended
                        (a requeueAfter of a reconcile that wrote nothing is a periodic resync,
                        not work left; when only retries of failing keys are left: exit 1, naming them)
  --trace OUT.jsonl     one JSON line per reconcile: key, trigger, cache RV, writes, result, duration
  --workers N           concurrent reconciles (default: the controller's maxConcurrentReconciles or 1)
  --reconcile-timeout MS  a reconcile running longer is reported and retried (default 30000);
                        one that blocks the controller (a loop that never yields) is stopped
                        with its process, which restarts, and its key is retried with backoff
  --max-heap MB         the controller's heap limit (default 2048; 0: Node's own): a controller
                        that leaks is reported out of memory, with the reconcile it was running
  --timeout SECONDS     give up after this long (exit 1), counted once a Go program has built
  --connect-timeout SECONDS  a Go program that has not connected by then fails the run (default 30)
  --why 'KIND NS/NAME'  at the end, say for each change of that object (or the one at @RV) whether
                        each controller reconciled it and why not: received, filtered by which
                        predicate, mapped to which request, merged or held back in the queue, not
                        watched at all, or refused by RBAC (repeatable)

Exit code: 0 when every key was reconciled; 1 when keys still fail, the controller blocked or
exited, or --timeout ran out; 2 for bad arguments or a scenario that does not load; 130/143
when SIGINT (Ctrl-C)/SIGTERM stopped it with a reconcile running or keys queued or retrying,
after a last line naming them (stopped idle: 0; Ctrl-C twice: at once).
`;

interface RunArgs {
  file: string;
  programArgs: string[];
  why: WhyTarget[];
  values: ReturnType<typeof parseRunArgs>['values'];
}

function parseRunArgs(argv: string[]) {
  const args = parseCommandLine(argv, {
    sim: { type: 'boolean' },
    scenario: { type: 'string' },
    workloads: { type: 'boolean' },
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    as: { type: 'string' },
    'until-idle': { type: 'boolean' },
    trace: { type: 'string' },
    workers: { type: 'string' },
    'reconcile-timeout': { type: 'string' },
    'max-heap': { type: 'string' },
    timeout: { type: 'string' },
    'connect-timeout': { type: 'string' },
    why: { type: 'string', multiple: true },
    quiet: { type: 'boolean', short: 'q' },
    help: { type: 'boolean', short: 'h' },
  });
  if (args.values.help) return args;
  if (args.positionals.length !== 1) throw new UsageError('expected exactly one controller FILE');
  if (args.values.sim && args.values.kubeconfig) throw new UsageError('--sim and --kubeconfig exclude each other');
  if (args.values.scenario && !args.values.sim) throw new UsageError('--scenario needs --sim');
  if (args.values.workloads && !args.values.sim) throw new UsageError('--workloads needs --sim');
  if (args.values.workers !== undefined) workersOption(args.values.workers);
  return args;
}

/** More concurrent reconciles than any controller needs, and few enough for the host to make. */
const MAX_WORKERS = 1000;

/** 0 workers would never reconcile (and --until-idle never end); a billion exhaust the host's heap. */
function workersOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS) throw new UsageError(`--workers must be a whole number from 1 to ${MAX_WORKERS} (got ${value})`);
  return n;
}

/** A day, in seconds: past 2^31 ms (~24.8 days) Node's timers fire at once, so a limit meant as "never" struck in a second. */
const MAX_SECONDS = 86_400;

function numberOption(name: string, value: string | undefined, max = Infinity): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a non-negative number`);
  if (n > max) throw new UsageError(`--${name} must be at most ${max} (a day; got ${value})`);
  return n;
}

export async function main(argvWithProgramArgs: string[]): Promise<number> {
  // After `--`: the Go program's own arguments, not ours.
  const dashes = argvWithProgramArgs.indexOf('--');
  const argv = dashes < 0 ? argvWithProgramArgs : argvWithProgramArgs.slice(0, dashes);
  let run: RunArgs;
  try {
    const args = parseRunArgs(argv);
    if (args.values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const given = programToRun(args.positionals[0] as string);
    if (given.note && args.values.quiet !== true) process.stdout.write(`${given.note}\n`);
    const spec = given.spec;
    const file = looksLikeGoPackagePath(spec) && !existsSync(resolve(spec)) ? spec : resolve(spec);
    const why = (args.values.why ?? []).map((text) => {
      try {
        return parseWhyTarget(text);
      } catch (err) {
        throw new UsageError(`--why: ${(err as Error).message}`);
      }
    });
    run = { file, programArgs: dashes < 0 ? [] : argvWithProgramArgs.slice(dashes + 1), why, values: args.values };
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`controller-lab run: ${err.message}\n\n${HELP}`);
      return 2;
    }
    throw err;
  }
  // Before a cluster starts for nothing.
  if (!existsSync(run.file) && !looksLikeGoPackagePath(run.file)) {
    process.stderr.write(`controller-lab run: controller file not found: ${run.file}\n`);
    return 1;
  }
  const target = controllerTarget(run.file);
  const notAFile = target.language === 'typescript' ? notAControllerFile(target.file) : undefined;
  if (notAFile) {
    process.stderr.write(`controller-lab run: ${notAFile}\n`);
    return 1;
  }
  return runController(run);
}

async function runController({ file, programArgs, why, values: v }: RunArgs): Promise<number> {
  const quiet = v.quiet === true;
  const io: RunOutput = {
    out: (line) => void (quiet || process.stdout.write(line + '\n')),
    complain: (line) => void process.stderr.write(`controller-lab run: ${line}\n`),
  };
  const tally = new RunTally();
  let sim: LaunchedSim | undefined;
  let trace: WriteStream | undefined;
  let session: ControllerSession | undefined;
  let removeSignalHandlers: (() => void) | undefined;
  try {
    const workers = v.workers === undefined ? undefined : workersOption(v.workers);
    const reconcileTimeoutMs = numberOption('reconcile-timeout', v['reconcile-timeout'], MAX_SECONDS * 1000);
    const maxHeapMb = numberOption('max-heap', v['max-heap']);
    const timeoutS = numberOption('timeout', v.timeout, MAX_SECONDS);
    const connectTimeoutS = numberOption('connect-timeout', v['connect-timeout'], MAX_SECONDS);
    let kubeconfig = v.kubeconfig ?? process.env.KUBECONFIG ?? '';
    const traceProblem = v.trace === undefined ? undefined : unwritableReason(v.trace);
    if (traceProblem) throw new UsageError(`--trace ${v.trace}: cannot write it: ${traceProblem}`);
    if (v.sim) {
      sim = await launchSim({
        scenario: v.scenario,
        workloads: v.workloads ?? false,
        onScenarioStepFailed: (problem) => io.complain(`scenario step failed: ${problem}`),
        onObjectsProgress: (p) => io.out(`scenario ${v.scenario}: ${describeObjectsProgress(p)}`),
      });
      kubeconfig = sim.kubeconfigPath;
      io.out(`simulated cluster at ${sim.url} (kubeconfig ${sim.kubeconfigPath})`);
      for (const warning of sim.scenarioWarnings) io.complain(`warning: ${warning}`);
    }
    if (v.trace) {
      const path = v.trace;
      trace = createWriteStream(resolve(path));
      // Checked above, yet the disk can fill or the folder go: the run goes on without its trace.
      let said = false;
      trace.on('error', (err) => {
        if (!said) io.complain(`--trace ${path}: cannot write it: ${fileErrorInWords(err) ?? err.message}`);
        said = true;
      });
    }
    // The runner never steps back, so the host need not copy every cached object over IPC.
    session = new ControllerSession({
      file,
      kubeconfig,
      context: v.context,
      runAs: v.as,
      workers,
      reconcileTimeoutMs,
      maxHeapMb,
      mirrorCache: false,
      restartOnFailure: true,
      go: { args: programArgs, localWebhooks: v.sim === true, connectTimeoutMs: connectTimeoutS === undefined ? undefined : connectTimeoutS * 1000 },
    });
    const s = session;
    const go = s.target.language === 'go';
    if (go && (workers !== undefined || reconcileTimeoutMs !== undefined)) {
      io.complain('--workers and --reconcile-timeout do not apply to a Go program (its MaxConcurrentReconciles and ReconciliationTimeout do)');
    }
    if (go && maxHeapMb !== undefined) io.complain('--max-heap does not apply to a Go program (GOMEMLIMIT does)');
    if (!go && programArgs.length) throw new UsageError('arguments after -- are for a Go program');
    // The report first: the ending reads the informer errors it has just recorded.
    const report = reportSession(s, io, tally, trace);
    const ending = new RunEnding({ session: s, sim, tally, informerErrors: report.informerErrors, untilIdle: v['until-idle'] === true, language: s.target.language, complain: io.complain });
    s.on('fatal', () => ending.end(1));
    s.on('exit', ({ code, signal }) => {
      // Stopping the host once the run has ended is no news.
      if (ending.ended) return;
      if (code !== 0 && !report.hostFailed && !report.fatal) {
        const during = s.inFlight().map((r) => `#${r.seq} ${r.forKind.kind} ${r.key}`);
        io.complain(`the controller host exited (${signal ?? `code ${code}`})${during.length ? ` during reconcile ${during.join(', ')}` : ''}`);
      }
      ending.end(code === 0 ? 0 : 1);
    });
    let interrupted: StopSignal | undefined;
    let interruptedAt = '';
    removeSignalHandlers = onStopSignals(
      (signal) => {
        interrupted = signal;
        // Said now: stopping the controller ends the reconciles it names.
        interruptedAt = interruptedLine(signal, s.inFlight(), s.queue);
        ending.end(cutShort(s.inFlight(), s.queue) ? signalExitCode(signal) : 0);
        void s.stop();
      },
      (signal) => {
        // Ctrl-C twice: no waiting for the controller to stop; its process group goes at once.
        killEveryControllerGroup();
        io.complain(`${interruptedAt || `stopped by ${signal}`} (forced)`);
        process.exit(signalExitCode(signal));
      },
    );
    if (go && v.sim && !v.scenario) noteStarterScenario(s.target.moduleDir, io);
    if (go) io.out(`building ${s.target.display} (go build in ${s.target.moduleDir})`);
    const built = go ? showBuildProgress(io) : undefined;
    const started = await session.start();
    built?.(started);
    if (!started && interrupted && go) {
      io.complain(`stopped (${interrupted}) while go build ran`);
      return signalExitCode(interrupted);
    }
    if (!started) return 1;
    // The build has its own progress lines: the time limit counts from here.
    if (timeoutS) ending.giveUpAfter(timeoutS);
    ending.noticeSlowSync();
    const code = await ending.finished;
    // Asked for: printed even with --quiet.
    for (const target of why) process.stdout.write(`${formatWhy(s.why(target))}\n`);
    io.out(tally.summary());
    // Last, where a terminal's or a CI log's eye lands: what the signal cut short.
    if (interrupted) io.complain(interruptedAt);
    return code;
  } catch (err) {
    // Bad input, as check counts it: the arguments, or a scenario that cannot be read or used.
    if (err instanceof UsageError || err instanceof ScenarioError || err instanceof ScenarioFileUnreadable) {
      io.complain(err.message);
      return 2;
    }
    io.complain((err as Error).message);
    return 1;
  } finally {
    await session?.stop();
    await sim?.stop();
    await new Promise<void>((r) => (trace ? trace.end(r) : r()));
    // Only now: a second Ctrl-C while the controller is being stopped must still force it.
    removeSignalHandlers?.();
  }
}

/**
 * Without --scenario the simulated cluster starts empty, so a kubebuilder manager cannot sync its
 * own kinds: a project init go set up has a starter scenario with its CRDs, said before the build.
 */
function noteStarterScenario(moduleDir: string, io: RunOutput): void {
  const starter = join(moduleDir, 'controller-lab', 'scenario.yaml');
  if (!existsSync(starter)) return;
  io.out(`no --scenario: the simulated cluster starts without the project's CRDs; its starter scenario has them: --scenario ${relative(process.cwd(), starter)}`);
}

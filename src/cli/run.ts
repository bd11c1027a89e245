import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { ControllerSession, InformerErrors, reportRbacHints, looksLikeGoPackagePath, launchSim, type LaunchedSim, traceLine, describeRecord } from '../runtime/index.ts';
import { parseCommandLine, UsageError } from './args.ts';
import { RunTally } from './runTally.ts';

// `controller-lab run FILE`: runs a user controller (TypeScript, or a Go controller-runtime program
// built with `go build`) in a child process against the simulated
// cluster (--sim, optionally seeded and driven by --scenario) or a real one (--kubeconfig/--context),
// printing one line per reconcile; --trace writes them as JSON lines, --until-idle stops once there
// is nothing left to do.

const HELP = `usage: controller-lab run FILE [--sim [--scenario F] | --kubeconfig F [--context C]]
                          [--as USER] [--until-idle] [--trace OUT.jsonl] [--workers N]
                          [--reconcile-timeout MS] [--timeout SECONDS] [--quiet]
                          [--connect-timeout SECONDS] [-- GO PROGRAM ARGS…]

Runs the controller FILE exports (export default defineController({ … })) in a child process.
FILE may also be a Go controller-runtime program whose main.go calls controllerlab.Wrap(mgr): a
.go file, its directory (./cmd/manager) or its package path; it is built with \`go build\` and run
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
                        (or only retries of failing keys are left: then exit 1, naming them)
  --trace OUT.jsonl     one JSON line per reconcile: key, trigger, cache RV, writes, result, duration
  --workers N           concurrent reconciles (default: the controller's maxConcurrentReconciles or 1)
  --reconcile-timeout MS  a reconcile running longer is reported and retried (default 30000);
                        one that blocks the controller (a loop that never yields) is stopped
                        with its process, which restarts, and its key is retried with backoff
  --timeout SECONDS     give up after this long (exit 1)
  --connect-timeout SECONDS  a Go program that has not connected by then fails the run (default 30)

Exit code: 0 when every key was reconciled; 1 when keys still fail, the controller blocked or
exited, or --timeout ran out; 2 for bad arguments.
`;

const IDLE_SETTLE_MS = 300;

export async function main(argvWithProgramArgs: string[]): Promise<number> {
  // After `--`: the Go program's own arguments, not ours.
  const dashes = argvWithProgramArgs.indexOf('--');
  const argv = dashes < 0 ? argvWithProgramArgs : argvWithProgramArgs.slice(0, dashes);
  const programArgs = dashes < 0 ? [] : argvWithProgramArgs.slice(dashes + 1);
  let args;
  try {
    args = parseCommandLine(argv, {
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
      timeout: { type: 'string' },
      'connect-timeout': { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
    });
    if (args.values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    if (args.positionals.length !== 1) throw new UsageError('expected exactly one controller FILE');
    if (args.values.sim && args.values.kubeconfig) throw new UsageError('--sim and --kubeconfig exclude each other');
    if (args.values.scenario && !args.values.sim) throw new UsageError('--scenario needs --sim');
    if (args.values.workloads && !args.values.sim) throw new UsageError('--workloads needs --sim');
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`controller-lab run: ${err.message}\n\n${HELP}`);
      return 2;
    }
    throw err;
  }
  const v = args.values;
  const spec = args.positionals[0] as string;
  const file = looksLikeGoPackagePath(spec) && !existsSync(resolve(spec)) ? spec : resolve(spec);
  // Before a cluster starts for nothing.
  if (!existsSync(file) && !looksLikeGoPackagePath(file)) {
    process.stderr.write(`controller-lab run: controller file not found: ${file}\n`);
    return 1;
  }
  const tally = new RunTally();
  const numberOption = (name: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a non-negative number`);
    return n;
  };

  let sim: LaunchedSim | undefined;
  let trace: WriteStream | undefined;
  let session: ControllerSession | undefined;
  const quiet = v.quiet === true;
  const out = (line: string) => quiet || process.stdout.write(line + '\n');
  try {
    const workers = numberOption('workers', v.workers);
    const reconcileTimeoutMs = numberOption('reconcile-timeout', v['reconcile-timeout']);
    const timeoutS = numberOption('timeout', v.timeout);
    const connectTimeoutS = numberOption('connect-timeout', v['connect-timeout']);
    let kubeconfig = v.kubeconfig ?? process.env.KUBECONFIG ?? '';
    if (v.sim) {
      sim = await launchSim({ scenario: v.scenario, workloads: v.workloads ?? false });
      kubeconfig = sim.kubeconfigPath;
      out(`simulated cluster at ${sim.url} (kubeconfig ${sim.kubeconfigPath})`);
    }
    if (v.trace) trace = createWriteStream(resolve(v.trace));
    // The runner never steps back, so the host need not copy every cached object over IPC.
    session = new ControllerSession({
      file,
      kubeconfig,
      context: v.context,
      runAs: v.as,
      workers,
      reconcileTimeoutMs,
      mirrorCache: false,
      restartOnFailure: true,
      go: { args: programArgs, connectTimeoutMs: connectTimeoutS === undefined ? undefined : connectTimeoutS * 1000 },
    });
    const s = session;
    if (s.target.language === 'go' && (workers !== undefined || reconcileTimeoutMs !== undefined)) {
      process.stderr.write('controller-lab run: --workers and --reconcile-timeout do not apply to a Go program (its MaxConcurrentReconciles and ReconciliationTimeout do)\n');
    }
    if (s.target.language !== 'go' && programArgs.length) throw new UsageError('arguments after -- are for a Go program');
    let ended = false;
    const finished = new Promise<number>((resolveFinished) => {
      const done = (code: number) => {
        ended = true;
        resolveFinished(code);
      };
      let settle: ReturnType<typeof setTimeout> | undefined;
      let synced = false;
      const checkIdle = () => {
        clearTimeout(settle);
        if (!v['until-idle'] || !synced || !s.settled || !(sim?.scenarioFinished() ?? true)) return;
        settle = setTimeout(() => {
          if (!s.settled) return;
          const failing = tally.failingReport();
          const problems = tally.problemsReport();
          if (failing) process.stderr.write(`controller-lab run: stopped with ${failing}\n`);
          else if (problems) process.stderr.write(`controller-lab run: every key reconciled, but ${problems}\n`);
          done(tally.clean ? 0 : 1);
        }, IDLE_SETTLE_MS);
      };
      s.on('ready', ({ controller }) => out(`controller ${controller.name}: for ${controller.forKind.kind}, ${controller.workers} worker(s)`));
      s.on('synced', () => {
        synced = true;
        sim?.startScenario();
        checkIdle();
      });
      s.on('idle', checkIdle);
      void sim?.scenarioDone.then(checkIdle, (err: Error) => {
        process.stderr.write(`scenario: ${err.message}\n`);
        done(1);
      });
      s.on('reconcileEnd', ({ record }) => {
        tally.reconciled(record);
        out(describeRecord(record));
        // API errors explain themselves; anything else gets its stack (source-mapped to the user's file).
        const err = record.outcome?.kind === 'error' ? record.outcome.error : undefined;
        if (err && err.name !== 'ApiError' && err.stack) process.stderr.write(`  ${err.stack}\n`);
        trace?.write(traceLine(record) + '\n');
      });
      s.on('log', ({ line, record, uncaught }) => {
        if (uncaught) tally.uncaught();
        const where = record ? ` [#${record.seq} ${record.key}]` : '';
        const text = `  ${line.level}${where}: ${line.message}${line.fields ? ' ' + JSON.stringify(line.fields) : ''}`;
        if (line.level === 'error') process.stderr.write(text + '\n');
        else out(text);
      });
      const informerErrors = new InformerErrors();
      s.on('probe', ({ probe }) => {
        const line = informerErrors.lineFor(probe);
        if (line) process.stderr.write(`controller-lab run: ${line}\n`);
      });
      reportRbacHints(s, (hint) => process.stderr.write(`controller-lab run: ${hint}\n`));
      s.on('output', ({ stream, text }) => (stream === 'stderr' ? process.stderr : process.stdout).write(text));
      let hostFailure = false;
      s.on('hostFailed', ({ message, restarting }) => {
        tally.hostFailed(restarting);
        hostFailure = true;
        process.stderr.write(`controller-lab run: ${message}${restarting ? '; restarting it (the key is retried with backoff)' : ''}\n`);
      });
      let fatal = false;
      s.on('fatal', ({ phase, message }) => {
        // A host failure was just reported in full.
        if (!hostFailure || phase !== 'run') process.stderr.write(`controller-lab run: ${phase === 'compile' ? '' : `${phase} failed: `}${message}\n`);
        fatal = true;
        done(1);
      });
      s.on('exit', ({ code, signal }) => {
        // Stopping the host once the run has ended is no news.
        if (ended) return;
        if (code !== 0 && !hostFailure && !fatal) {
          const during = s.inFlight().map((r) => `#${r.seq} ${r.forKind.kind} ${r.key}`);
          process.stderr.write(`controller-lab run: the controller host exited (${signal ?? `code ${code}`})${during.length ? ` during reconcile ${during.join(', ')}` : ''}\n`);
        }
        done(code === 0 ? 0 : 1);
      });
      if (timeoutS) {
        setTimeout(() => {
          const q = s.queue;
          const shown = q.keys.slice(0, 10).map((k) => `${k.key} ${k.state}`);
          const more = q.depth + q.processing + q.waiting - shown.length;
          const busy = shown.length ? `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}` : 'scenario running';
          process.stderr.write(`controller-lab run: gave up after ${timeoutS} s (not idle: ${busy})\n`);
          // A reconcile still running is the likeliest reason: say which, and for how long.
          for (const r of s.inFlight().slice(0, 10)) {
            process.stderr.write(`  reconcile #${r.seq} ${r.forKind.kind} ${r.key} has been running ${((Date.now() - r.startedAt) / 1000).toFixed(1)} s\n`);
          }
          done(1);
        }, timeoutS * 1000).unref();
      }
    });
    const stopOnSignal = () => void s.stop();
    process.once('SIGINT', stopOnSignal);
    process.once('SIGTERM', stopOnSignal);
    if (s.target.language === 'go') out(`building ${s.target.display} (go build in ${s.target.moduleDir})`);
    if (!(await session.start())) return 1;
    const code = await finished;
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    out(tally.summary());
    return code;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`controller-lab run: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`controller-lab run: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await session?.stop();
    await sim?.stop();
    await new Promise<void>((r) => (trace ? trace.end(r) : r()));
  }
}

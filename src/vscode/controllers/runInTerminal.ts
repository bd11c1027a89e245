import * as vscode from 'vscode';
import { ControllerSession, describeRecord, launchSim } from '../../runtime/index.ts';
import type { LaunchedSim } from '../../runtime/index.ts';

// "Run Controller on Simulated Cluster": the controller runs in this extension host's runtime (a
// ControllerSession, the same one the debugger uses, without a gate), so the Controllers tree and the
// timeline follow it live; its output goes to a terminal of its own (a pseudoterminal). Closing the
// terminal stops the controller and the simulated cluster.

export interface RunOptions {
  file: string;
  /** A scenario that seeds and drives the simulated cluster (the examples' scenario.yaml). */
  scenario?: string;
  cwd?: string;
}

export interface RunningController {
  readonly terminal: vscode.Terminal;
  /** Resolves with the session once it started (undefined when it could not). */
  readonly started: Promise<ControllerSession | undefined>;
}

const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

export function runControllerInTerminal(options: RunOptions): RunningController {
  const writeEmitter = new vscode.EventEmitter<string>();
  const closeEmitter = new vscode.EventEmitter<number | void>();
  let session: ControllerSession | undefined;
  let sim: LaunchedSim | undefined;
  let stopped = false;
  const out = (line: string) => writeEmitter.fire(crlf(`${line}\n`));
  const err = (line: string) => writeEmitter.fire(crlf(`\x1b[31m${line}\x1b[0m\n`));

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await session?.stop().catch(() => {});
    await sim?.stop().catch(() => {});
  };

  let resolveStarted: (s: ControllerSession | undefined) => void = () => {};
  const started = new Promise<ControllerSession | undefined>((r) => (resolveStarted = r));

  const start = async () => {
    try {
      sim = await launchSim({ scenario: options.scenario, onScenarioStepFailed: (problem) => err(`scenario step failed: ${problem}`) });
      out(`Simulated cluster at ${sim.url}${options.scenario ? ` (scenario ${options.scenario})` : ''}`);
      for (const warning of sim.scenarioWarnings) err(`warning: ${warning}`);
      if (stopped) return resolveStarted(undefined);
      const s = new ControllerSession({ file: options.file, kubeconfig: sim.kubeconfigPath, cwd: options.cwd, mirrorCache: false });
      session = s;
      s.on('ready', ({ controller }) => out(`controller ${controller.name}: for ${controller.forKind.kind}, ${controller.workers} worker(s)`));
      s.on('synced', () => {
        out('caches synced; workers running');
        sim?.startScenario();
      });
      s.on('reconcileEnd', ({ record }) => out(describeRecord(record)));
      s.on('log', ({ line, record }) => {
        const text = `  ${line.level}${record ? ` [#${record.seq} ${record.key}]` : ''}: ${line.message}${line.fields ? ' ' + JSON.stringify(line.fields) : ''}`;
        if (line.level === 'error') err(text);
        else out(text);
      });
      s.on('output', ({ text }) => writeEmitter.fire(crlf(text)));
      s.on('fatal', ({ phase, message }) => err(`${phase === 'compile' ? '' : `${phase} failed: `}${message}`));
      s.on('exit', ({ code, signal }) => {
        out(`controller exited (${signal ?? `code ${code}`}) — close this terminal to stop the simulated cluster`);
      });
      const ok = await s.start();
      resolveStarted(ok ? s : undefined);
    } catch (e) {
      err(e instanceof Error ? e.message : String(e));
      resolveStarted(undefined);
    }
  };

  const pty: vscode.Pseudoterminal = {
    onDidWrite: writeEmitter.event,
    onDidClose: closeEmitter.event,
    open: () => {
      out(`Running ${options.file} — close this terminal (or Ctrl+C) to stop.`);
      void start();
    },
    close: () => void stop(),
    handleInput: (data) => {
      if (data === '\x03') {
        out('^C');
        void stop().then(() => closeEmitter.fire(0));
      }
    },
  };
  const terminal = vscode.window.createTerminal({ name: 'Controller Lab: run', pty });
  return { terminal, started };
}

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Runs the real controller-lab command as a child process on this Node (>= 22.19, runs .ts).

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const cliSource = path.join(repoRoot, 'src/cli/main.ts');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  /** Resolves once stdout contains `text`. */
  waitForStdout(text: string): Promise<void>;
  done: Promise<CliResult>;
}

export function startCli(args: string[], options: { entry?: string; env?: NodeJS.ProcessEnv } = {}): RunningCli {
  const child = spawn(process.execPath, [options.entry ?? cliSource, ...args], {
    cwd: repoRoot,
    env: { ...process.env, KUBECONFIG: '', HOME: '/nonexistent', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    for (const w of [...waiters]) {
      if (!stdout.includes(w.text)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return {
    child,
    done,
    waitForStdout: (text) =>
      stdout.includes(text)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            waiters.push({ text, resolve });
            void done.then(() => reject(new Error(`exited before printing ${JSON.stringify(text)}; stdout:\n${stdout}\nstderr:\n${stderr}`)));
          }),
  };
}

export function runCli(args: string[], options: { entry?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return startCli(args, options).done;
}

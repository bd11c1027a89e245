import { execFileSync, spawn } from 'node:child_process';
import { cpus } from 'node:os';

// Runs one benchmark contender in a fresh process (so contenders never share a heap, a JIT or
// a GC history) and reads the JSON line it prints last.

export interface ChildRun<R> {
  result?: R;
  error?: string;
  wallMs: number;
}

export interface ChildOptions {
  nodeFlags?: string[];
  timeoutMs?: number;
  /** Run on this CPU only (Linux, with `taskset`), so the contender never shares a core with the server. */
  cpu?: number | undefined;
}

export function runChild<R>(script: string, args: string[], options: ChildOptions = {}): Promise<ChildRun<R>> {
  return runProgram<R>([process.execPath, ...(options.nodeFlags ?? []), script, ...args], options);
}

/** Any program that prints its result as the last JSON line (e.g. the client-go peer, a Go binary). */
export function runProgram<R>(command: string[], options: ChildOptions & { env?: NodeJS.ProcessEnv } = {}): Promise<ChildRun<R>> {
  const started = performance.now();
  const argv = options.cpu !== undefined && canPin() ? ['taskset', '-c', String(options.cpu), ...command] : command;
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], ...(options.env ? { env: options.env } : {}) });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const wallMs = performance.now() - started;
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        if (code === 0) return resolve({ result: JSON.parse(last) as R, wallMs });
      } catch {
        // fall through: report what the child said
      }
      resolve({ error: `exit ${code ?? signal}: ${(err || out).trim().split('\n').filter((l) => /Error|error/.test(l)).slice(0, 2).join(' | ') || (err || out).trim().slice(-300)}`, wallMs });
    });
  });
}

let pinnable: boolean | undefined;

/** Whether `taskset` can pin processes here (Linux with util-linux, more than one CPU). */
export function canPin(): boolean {
  if (pinnable === undefined) {
    try {
      execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
      pinnable = cpus().length > 1;
    } catch {
      pinnable = false;
    }
  }
  return pinnable;
}

/** Pins this process to one CPU (best effort): the benchmark's server keeps to its own core. */
export function pinSelf(cpu: number): boolean {
  if (!canPin()) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

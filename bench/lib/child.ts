import { spawn } from 'node:child_process';

// Runs one benchmark contender in a fresh Node process (so contenders never share a heap, a JIT or
// a GC history) and reads the JSON line it prints last.

export interface ChildRun<R> {
  result?: R;
  error?: string;
  wallMs: number;
}

export function runChild<R>(script: string, args: string[], options: { nodeFlags?: string[]; timeoutMs?: number } = {}): Promise<ChildRun<R>> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...(options.nodeFlags ?? []), script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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

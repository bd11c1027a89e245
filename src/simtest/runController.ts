import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { packageCommand } from './command.ts';
import { OutputTail } from './output.ts';
import type { Reconcile, RunControllerOptions, RunResult } from '../../types/simtest.d.ts';

// `controller-lab run FILE --kubeconfig SIM --until-idle`: the controller reconciles what the
// cluster holds until nothing is left to do; each reconcile comes back from its --trace line.

/** `run` ended with keys still failing, the controller exited or blocked, or the timeout ran out. */
export class ControllerRunError extends Error {
  readonly result: RunResult;
  readonly exitCode: number | null;
  constructor(message: string, exitCode: number | null, result: RunResult) {
    super(message);
    this.name = 'ControllerRunError';
    this.exitCode = exitCode;
    this.result = result;
  }
}

export async function runController(kubeconfig: string, file: string, options: RunControllerOptions = {}): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd();
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-simtest-run-'));
  const trace = join(dir, 'trace.jsonl');
  const args = ['run', resolve(cwd, file), '--kubeconfig', kubeconfig, '--until-idle', '--quiet', '--trace', trace, '--timeout', String(options.timeoutSeconds ?? 60), ...(options.args ?? [])];
  const output = new OutputTail();
  try {
    const code = await new Promise<number | null>((done, fail) => {
      const child = spawn(packageCommand(), args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk: Buffer) => output.add(chunk));
      child.stderr.on('data', (chunk: Buffer) => output.add(chunk));
      child.once('error', fail);
      child.once('close', (exitCode) => done(exitCode));
    });
    const result = { reconciles: readTrace(trace), output: output.toString() };
    if (code !== 0) throw new ControllerRunError(`controller-lab run ${file} exited with ${code ?? 'a signal'}:\n${result.output}`, code, result);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readTrace(path: string): Reconcile[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Reconcile);
}

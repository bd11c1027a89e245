import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Runs `controller-lab run` (a child Node on the CLI's TS entry, against --sim) on a controller
// written for the test, and reads back its --trace.

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CLI = join(ROOT, 'src/cli/main.ts');
export const REPLICASET_SCENARIO = join(ROOT, 'examples/replicaset-controller/scenario.yaml');

export interface TraceLine {
  seq: number;
  key: string;
  trigger: { type: string; kind: string; key: string; via: string }[];
  writes: { verb: string; name: string }[];
  error?: { message: string; timedOut?: boolean; terminal?: boolean };
  requeue: { action: string; reason?: string };
  startedAt: string;
  durationMs: number;
}

export interface RunResult {
  /** null: killed by the test's own time limit (the run hung). */
  code: number | null;
  stdout: string;
  stderr: string;
  trace: TraceLine[];
  elapsedMs: number;
}

export function withTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'cl-run-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function withTempDirAsync<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'cl-run-'));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `source` as controller.ts in `dir` and runs it (source undefined: runs `dir`/nosuch.ts); `args` follow the file name. */
export function runController(dir: string, source: string | undefined, args: string[], options: { limitMs?: number; env?: NodeJS.ProcessEnv } = {}): RunResult {
  const file = join(dir, source === undefined ? 'nosuch.ts' : 'controller.ts');
  if (source !== undefined) writeFileSync(file, source);
  const trace = join(dir, 'trace.jsonl');
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'run', file, '--trace', trace, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: options.limitMs ?? 60_000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...options.env },
  });
  let lines: TraceLine[] = [];
  try {
    lines = readFileSync(trace, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as TraceLine);
  } catch {
    // No trace file: the run ended before it opened one.
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, trace: lines, elapsedMs: performance.now() - started };
}

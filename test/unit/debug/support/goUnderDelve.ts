import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// Shared by the Delve tests: go/examples/configmap-mirror, the line inside its Reconcile they
// stop on, a build, and process checks through /proc (dlv runs the program as its child).

export const GO_MODULE = fileURLToPath(new URL('../../../../go', import.meta.url));
export const MIRROR_MAIN = `${GO_MODULE}/examples/configmap-mirror/main.go`;
/** `if src.Labels["mirror"] != "source" {` in Reconcile. */
export const LABEL_LINE = readFileSync(MIRROR_MAIN, 'utf8').split('\n').findIndex((l) => l.includes('src.Labels["mirror"] != "source"')) + 1;
export const CM = { group: '', version: 'v1', resource: 'configmaps' };

export async function buildMirror(output: string, flags: string[]): Promise<void> {
  await promisify(execFile)('go', ['build', ...flags, '-o', output, './examples/configmap-mirror'], { cwd: GO_MODULE });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped by its parent) is not running.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Children of every thread of pid (a child is listed under the thread that started it). */
export function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** The pid of dlv's child running `binary` (dlv may run other short-lived children, e.g. `go env`). */
export function programUnder(dlvPid: number, binary: string): number | undefined {
  return childrenOf(dlvPid).find((pid) => {
    try {
      return readlinkSync(`/proc/${pid}/exe`) === binary;
    } catch {
      return false;
    }
  });
}

/** A process named by pid and start time, so a pid the kernel hands out again is not taken for it. */
export interface ProcessRef {
  pid: number;
  startedAt: string;
}

export function processRef(pid: number): ProcessRef {
  return { pid, startedAt: startTimeOf(pid) ?? '' };
}

export function isStillRunning(ref: ProcessRef): boolean {
  return isAlive(ref.pid) && startTimeOf(ref.pid) === ref.startedAt;
}

/** What a process runs, for a failure message. */
export function commandOf(ref: ProcessRef): string {
  try {
    return `${ref.pid} ${readFileSync(`/proc/${ref.pid}/cmdline`, 'utf8').split('\0').join(' ').trim()}`;
  } catch {
    return `${ref.pid} (gone)`;
  }
}

function startTimeOf(pid: number): string | undefined {
  try {
    // Field 22 of /proc/PID/stat; the command name (field 2) may hold spaces, so count after its ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

export async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

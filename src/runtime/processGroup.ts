import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { descendantsOf, killSeen, processesWithEnv, type SeenProcess } from '../shared/processDescendants.ts';

// A controller's process (the TypeScript host, a Go program) runs in a process group of its own, so
// that whatever the controller starts ends with it, as a container's processes end with the
// container. Without that, a child sharing its output pipes kept them, and the run, open.

/** Spawn option: POSIX only, since on Windows a detached child gets a console window of its own. */
export const OWN_PROCESS_GROUP = process.platform !== 'win32';

/** How long output still arriving after the process exited is read (what its last writes left in the pipe). */
const OUTPUT_DRAIN_MS = 200;

/** The environment variable that marks a controller's process and all it starts. */
const MARK_VARIABLE = 'CONTROLLER_LAB_PROCESS_MARK';

/** Each process's mark (`NAME=value`), given by markedEnv. */
const marks = new WeakMap<ChildProcess, string>();

/**
 * The environment to start a controller's process with: a mark of its own, which whatever it
 * starts inherits, so that endLeftovers finds a daemon that double-forked out of its reach.
 * Call adoptMark with the process once started.
 */
export function markedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, [MARK_VARIABLE]: `${process.pid}-${randomBytes(8).toString('hex')}` };
}

/** Every controller process started and not yet ended, for killEveryControllerGroup. */
const live = new Set<ChildProcess>();

/** Ties a process started with markedEnv's environment to its mark. */
export function adoptMark(child: ChildProcess, env: NodeJS.ProcessEnv): void {
  const mark = env[MARK_VARIABLE];
  if (mark) marks.set(child, `${MARK_VARIABLE}=${mark}`);
  live.add(child);
}

/**
 * For a parent that exits at once (Ctrl-C twice): kills every controller process it started, its
 * group and what it had started, now, without waiting for any exit event.
 */
export function killEveryControllerGroup(): void {
  for (const child of live) {
    noteDescendants(child);
    child.kill('SIGKILL');
    endLeftovers(child);
  }
}

/** What each process had started when it was last told to stop, to be ended with it. */
const startedBeforeStop = new WeakMap<ChildProcess, SeenProcess[]>();

/**
 * Before the process is told to stop or killed: notes what it has started, so that endLeftovers
 * also ends what left its process group (a detached child), not only the group.
 */
export function noteDescendants(child: ChildProcess): void {
  if (!OWN_PROCESS_GROUP || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  startedBeforeStop.set(child, descendantsOf(child.pid));
}

/**
 * Once the process has exited: kills what is left of its group and what it had started when it
 * was stopped, and closes its output pipes after a moment, since a process that escaped the group
 * and shares them would otherwise keep them open.
 */
export function endLeftovers(child: ChildProcess): void {
  live.delete(child);
  if (OWN_PROCESS_GROUP && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // ESRCH: nothing of the group is left.
    }
    killSeen(startedBeforeStop.get(child) ?? []);
    startedBeforeStop.delete(child);
    const mark = marks.get(child);
    if (mark) killSeen(processesWithEnv(mark));
  }
  setTimeout(() => {
    child.stdout?.destroy();
    child.stderr?.destroy();
  }, OUTPUT_DRAIN_MS).unref();
}

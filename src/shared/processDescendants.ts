import { readdirSync, readFileSync } from 'node:fs';

// The processes a controller's process started, found while it is alive (Linux: /proc). One that
// left its process group (spawn's `detached`, setsid, a daemon) is not reached by killing the
// group, and once its parent exits it is reparented to init and can no longer be traced to it.

/** A process as it was seen: its start time tells it from a later process given the same pid. */
export interface SeenProcess {
  pid: number;
  startTime: string;
}

interface ProcStat extends SeenProcess {
  ppid: number;
}

/** /proc/PID/stat's fields after the command name, which may itself hold spaces and parentheses. */
function readStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): ppid is field 4, starttime field 22.
    return { pid, ppid: Number(fields[1]), startTime: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

/** Every process below `root` now, children first; none where there is no /proc. */
export function descendantsOf(root: number): SeenProcess[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
  const children = new Map<number, ProcStat[]>();
  for (const pid of pids) {
    const stat = readStat(pid);
    if (!stat) continue;
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(stat);
    else children.set(stat.ppid, [stat]);
  }
  const found: SeenProcess[] = [];
  const visit = (pid: number): void => {
    for (const child of children.get(pid) ?? []) {
      found.push({ pid: child.pid, startTime: child.startTime });
      visit(child.pid);
    }
  };
  visit(root);
  return found;
}

/** SIGKILLs each process that is still the one that was seen. */
export function killSeen(seen: readonly SeenProcess[]): void {
  for (const { pid, startTime } of seen) {
    if (readStat(pid)?.startTime !== startTime) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ESRCH: it ended meanwhile.
    }
  }
}

/**
 * Every process of ours (other than this one) whose environment holds `entry` (`NAME=value`):
 * a mark given to a process is inherited by all it starts, even one that double-forked (setsid,
 * then fork, then the middle process exits) and so is no longer anyone's descendant.
 */
export function processesWithEnv(entry: string): SeenProcess[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
  const found: SeenProcess[] = [];
  for (const pid of pids) {
    if (pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue; // Another user's, or gone.
    }
    if (!`\0${environ}`.includes(`\0${entry}\0`)) continue;
    const stat = readStat(pid);
    if (stat) found.push({ pid, startTime: stat.startTime });
  }
  return found;
}

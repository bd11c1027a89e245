import { readFileSync } from 'node:fs';

// CPU time another process has used, where the OS tells (Linux /proc). The watchdog uses it to
// tell a host that is blocked (silent while it runs) from one that is only starved of CPU on a
// busy machine (silent because it hardly ran).

/** Clock ticks per second in /proc/<pid>/stat (USER_HZ: 100 on every Linux Node supports). */
const TICKS_PER_SECOND = 100;

/** User + system CPU milliseconds of `pid`, or undefined when the OS does not say. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

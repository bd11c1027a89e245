// How long a fake kubelet lets a run-to-completion Pod's container run: as long as its command
// says when it only sleeps (`sleep 300`, `sh -c "sleep 300"` — what test Jobs and CronJobs run to
// stay active), else the workload simulation's jobPodDurationMs. A Pod runs as long as its longest
// container.

const SHELLS = new Set(['sh', 'bash', 'ash']);

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Seconds of a `sleep` argument (`300`, `1.5`, `10s`, `2m`, `1h`), or undefined. */
function sleepSeconds(arg: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg ?? '');
  if (!m) return undefined;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit;
}

/** The seconds a container's command sleeps for, when sleeping is all it does. */
function sleepOf(argv: readonly string[]): number | undefined {
  const [program, ...rest] = argv;
  if (program === undefined) return undefined;
  if (basename(program) === 'sleep' && rest.length === 1) return sleepSeconds(rest[0]);
  if (SHELLS.has(basename(program)) && rest[0] === '-c' && rest.length === 2) {
    const words = (rest[1] ?? '').trim().split(/\s+/);
    if (words.length === 2 && words[0] === 'sleep') return sleepSeconds(words[1]);
  }
  return undefined;
}

interface ContainerCommand {
  command?: unknown;
  args?: unknown;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

export function runDurationMs(containers: readonly ContainerCommand[], defaultMs: number): number {
  let longest = 0;
  for (const c of containers) {
    const seconds = sleepOf([...strings(c.command), ...strings(c.args)]);
    longest = Math.max(longest, seconds === undefined ? defaultMs : seconds * 1000);
  }
  return containers.length ? longest : defaultMs;
}

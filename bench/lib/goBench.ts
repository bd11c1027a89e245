// Reads `go test -bench … -benchmem` output: one run per result line, with every metric it
// reports (ns/op, B/op, allocs/op and custom ones such as cpu-ns/op).

export interface GoBenchRun {
  /** Without the -GOMAXPROCS suffix: `BenchmarkReconcileDetached`. */
  name: string;
  iterations: number;
  /** Unit → value: `{ 'ns/op': 42.1, 'B/op': 0, 'allocs/op': 0 }`. */
  metrics: Record<string, number>;
}

const HEAD = /^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.*)$/;
const METRIC = /([\d.]+(?:e[+-]?\d+)?)\s+(\S+)/g;

export function parseGoBench(output: string): GoBenchRun[] {
  const runs: GoBenchRun[] = [];
  for (const line of output.split('\n')) {
    const m = HEAD.exec(line.trim());
    if (!m) continue;
    const metrics: Record<string, number> = {};
    for (const [, value, unit] of m[3]!.matchAll(METRIC)) metrics[unit!] = Number(value);
    if (metrics['ns/op'] !== undefined) runs.push({ name: m[1]!, iterations: Number(m[2]), metrics });
  }
  return runs;
}

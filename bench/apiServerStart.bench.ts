// `node bench/apiServerStart.bench.ts`: how long a Go test suite waits for its API server —
// simtest (the simulated cluster, CRDs installed) against envtest (etcd + kube-apiserver), both
// through their Go helpers in go/simtest (BenchmarkStart, BenchmarkStartEnvtest). envtest needs its
// binaries in KUBEBUILDER_ASSETS (or envtest's default /usr/local/kubebuilder/bin); where there are
// none its row says so. REPS (default 5) starts each.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { markdownTable, textTable } from './lib/table.ts';

const GO_MODULE = fileURLToPath(new URL('../go', import.meta.url));
const REPS = Number(process.env['REPS'] ?? 5);
const DEFAULT_ASSETS = '/usr/local/kubebuilder/bin';

function envtestAssets(): string | undefined {
  const given = process.env['KUBEBUILDER_ASSETS'];
  if (given) return given;
  return existsSync(`${DEFAULT_ASSETS}/kube-apiserver`) ? DEFAULT_ASSETS : undefined;
}

/** Mean seconds per start of each benchmark that ran, by name. */
function runGoBenchmarks(pattern: string, env: NodeJS.ProcessEnv): Promise<Map<string, number>> {
  const args = ['test', '-run', '^$', '-bench', pattern, '-benchtime', `${REPS}x`, './simtest'];
  return new Promise((resolve, reject) => {
    execFile('go', args, { cwd: GO_MODULE, env, timeout: 600_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`go ${args.join(' ')}: ${stderr || stdout || err.message}`));
      const found = new Map<string, number>();
      for (const m of stdout.matchAll(/^(Benchmark\w+)-\d+\s+\d+\s+(\d+) ns\/op/gm)) found.set(m[1]!, Number(m[2]) / 1e9);
      resolve(found);
    });
  });
}

const assets = envtestAssets();
const load = loadavg()[0]!.toFixed(1);
const results = await runGoBenchmarks(assets ? '^BenchmarkStart(Envtest)?$' : '^BenchmarkStart$', { ...process.env, ...(assets ? { KUBEBUILDER_ASSETS: assets } : {}) });
const sim = results.get('BenchmarkStart');
const envtest = results.get('BenchmarkStartEnvtest');
if (sim === undefined) throw new Error('BenchmarkStart did not report');

const header = ['API server for a Go test suite', 'start (mean)', 'against envtest'];
const rows = [
  ['simtest (controller-lab sim, CRDs installed)', `${sim.toFixed(2)} s`, envtest ? `${(sim / envtest).toFixed(2)}×` : '—'],
  ['envtest (etcd + kube-apiserver)', envtest ? `${envtest.toFixed(2)} s` : 'no binaries (set KUBEBUILDER_ASSETS)', envtest ? '1.00×' : '—'],
];
console.log(`${REPS} starts each, load average ${load} when it began\n`);
console.log(textTable(header, rows));
console.log(`\n${markdownTable(header, rows)}`);

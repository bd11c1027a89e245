// `controller-lab run` under load: a controller whose reconcile of one seed ConfigMap creates N
// ConfigMaps, each of which is then reconciled in turn (the controller writes its own kind, so every
// write comes back as a watch event, a queued key and a reconcile). Time per object should stay
// flat as N grows: the ratio 10k/1k is 1.0 for a linear runner.
//
//   npm run bench -- [--quick]            (or: node bench/controllerRun.bench.ts --sizes 1000,4000)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ms, ratio } from './lib/stats.ts';
import { markdownTable } from './lib/table.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'src/cli/main.ts');

const { values } = parseArgs({ options: { sizes: { type: 'string' }, quick: { type: 'boolean' } }, strict: false });
const sizes = (typeof values.sizes === 'string' ? values.sizes : values.quick ? '1000,4000' : '1000,2000,4000,10000').split(',').map(Number);

const CONTROLLER = `import { defineController } from 'controller-lab';
const N = Number(process.env.BENCH_OBJECTS);
export default defineController({
  name: 'fanout',
  for: { apiVersion: 'v1', kind: 'ConfigMap' },
  async reconcile(req, ctx) {
    if (req.name !== 'seed') return;
    for (let i = 0; i < N; i++) {
      await ctx.client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-' + i, namespace: req.namespace }, data: { i: String(i) } });
    }
  },
});
`;
const SCENARIO = 'objects:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: seed, namespace: default }\n';

interface Result {
  n: number;
  wallMs: number;
  /** First reconcile start to last reconcile end: the work itself, without startup and sync. */
  workMs: number;
  reconciles: number;
}

function measure(dir: string, n: number): Result {
  const trace = path.join(dir, `trace-${n}.jsonl`);
  const started = performance.now();
  // The seed's single reconcile does all the writing: on a busy machine it may outlast the default 30 s limit.
  const r = spawnSync(process.execPath, [CLI, 'run', path.join(dir, 'fanout.ts'), '--sim', '--scenario', path.join(dir, 'seed.yaml'), '--until-idle', '--quiet', '--reconcile-timeout', '300000', '--trace', trace, '--timeout', '300'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, BENCH_OBJECTS: String(n) },
  });
  const wallMs = performance.now() - started;
  if (r.status !== 0) throw new Error(`run with ${n} objects exited ${r.status ?? r.signal}: ${r.stderr}`);
  const lines = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { startedAt: string; durationMs: number });
  const first = Date.parse(lines[0]!.startedAt);
  const last = Math.max(...lines.map((l) => Date.parse(l.startedAt) + l.durationMs));
  return { n, wallMs, workMs: last - first, reconciles: lines.length };
}

const dir = mkdtempSync(path.join(tmpdir(), 'cl-bench-run-'));
try {
  writeFileSync(path.join(dir, 'fanout.ts'), CONTROLLER);
  writeFileSync(path.join(dir, 'seed.yaml'), SCENARIO);
  console.log(`controller-lab run, a controller creating N objects of its own kind (${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)})\n`);
  const results: Result[] = [];
  for (const n of sizes) {
    const res = measure(dir, n);
    results.push(res);
    console.log(`  N=${n}: ${ms(res.workMs)} (${res.reconciles} reconciles)`);
  }
  const perObject = (r: Result) => (r.workMs * 1000) / r.n;
  const rows = results.map((r) => [String(r.n), ms(r.wallMs), ms(r.workMs), `${perObject(r).toFixed(0)} µs`, String(r.reconciles)]);
  console.log(markdownTable(['objects', 'wall (incl. startup)', 'work', 'per object', 'reconciles'], rows));
  const small = results[0]!;
  const large = results.at(-1)!;
  if (results.length > 1) console.log(`\nper-object time ${large.n}/${small.n}: ${ratio(perObject(large) / perObject(small))} (1.00× is linear)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// `controller-lab check`: a full check — two reference runs, then every planned perturbation — of a
// TypeScript controller (examples/replicaset-controller), a Go controller-runtime one
// (go/examples/configmap-mirror), each with a 10-second scenario (bench/check/), and the kubebuilder
// tutorial's memcached operator in Go, whose Deployments the sim's workload controllers roll out
// (--workloads, a 7-second scenario, about 120 runs), through the built command as a user runs it.
// Printed beside what Sieve reports for the same kind of search on kind clusters: 11–67
// machine-hours per controller (X. Sun, W. Luo, J. T. Gu, A. Ganesan, R. Alagappan,
// M. Gasch, L. Suresh, T. Xu, "Automatic Reliability Testing for Cluster Management Controllers",
// OSDI '22). The goal here: at most 2 minutes per check.
//
//   npm run bench -- [--quick]            (or: node bench/check.bench.ts; --quick: a 60 s budget each)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { markdownTable } from './lib/table.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/cli.cjs');
const GOAL_MS = 2 * 60_000;

const { values } = parseArgs({ options: { quick: { type: 'boolean' } }, strict: false });

interface Subject {
  name: string;
  language: string;
  program: string;
  scenario: string;
  args?: string[];
}

const SUBJECTS: Subject[] = [
  { name: 'replicaset-controller', language: 'TypeScript', program: 'examples/replicaset-controller/controller.ts', scenario: 'bench/check/replicasets-10s.yaml' },
  { name: 'configmap-mirror', language: 'Go', program: './go/examples/configmap-mirror', scenario: 'bench/check/mirrors-10s.yaml' },
  { name: 'memcached-operator', language: 'Go', program: './test/check/go/memcached/correct', scenario: 'test/check/scenarios/memcached.yaml', args: ['--workloads'] },
];

interface Report {
  findings: unknown[];
  runs: number;
  planned: number;
  skipped: number;
  durationMs: number;
}

function measure(dir: string, s: Subject): { wallMs: number; report: Report } {
  const json = path.join(dir, `${s.name}.json`);
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'check', s.program, '--scenario', s.scenario, '--json', json, ...(s.args ?? []), ...(values.quick ? ['--budget', '60s'] : [])], { cwd: ROOT, encoding: 'utf8' });
  const wallMs = performance.now() - started;
  // Exit 1 is a finding: the examples have none, so that is as much a failure here as a crash.
  if (r.status !== 0) throw new Error(`check of ${s.program} exited ${r.status ?? r.signal}:\n${r.stdout.slice(-3000)}\n${r.stderr}`);
  return { wallMs, report: JSON.parse(readFileSync(json, 'utf8')) as Report };
}

// The built command: its controller host is one bundle, as a user's is.
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);

const dir = mkdtempSync(path.join(tmpdir(), 'cl-bench-check-'));
try {
  console.log(`controller-lab check, a full check with a 10-second scenario (${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)})\n`);
  const rows: string[][] = [];
  let over = false;
  for (const s of SUBJECTS) {
    const { wallMs, report } = measure(dir, s);
    over ||= wallMs > GOAL_MS;
    const perRun = report.durationMs / Math.max(1, report.runs);
    console.log(`  ${s.language} ${s.name}: ${(wallMs / 1000).toFixed(1)} s, ${report.runs} runs (${report.planned} planned, ${report.skipped} left out by the budget)`);
    rows.push([`${s.name} (${s.language})`, String(report.runs), `${(perRun / 1000).toFixed(2)} s`, `${(wallMs / 1000).toFixed(0)} s`, `${(wallMs / 3_600_000).toFixed(3)} h`, '11–67 h']);
  }
  console.log(`\n${markdownTable(['controller', 'runs', 'per run', 'check (wall)', 'machine-hours', "Sieve (OSDI '22), per controller"], rows)}`);
  console.log(`\ngoal: at most ${GOAL_MS / 60_000} minutes per check — ${over ? 'MISSED' : 'met'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

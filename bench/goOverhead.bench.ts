// What the Go module (controllerlab.Wrap) costs a controller-runtime reconcile, from the module's
// own Go benchmarks (go/controllerlab/bench_test.go), against the goals:
// - attached but not stopped (started by Controller Lab, no debugger stop): the whole path of a
//   real controller (event → queue → worker → reconcile → done, everything reported over the
//   socket) against the same controller without Controller Lab: < 50 µs more per reconcile;
// - detached (Wrap in a program not started by Controller Lab): < 100 ns and no allocation.
//
//   npm run bench -- [--quick]          (or: node bench/goOverhead.bench.ts --count 5)

import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './lib/stats.ts';
import { markdownTable } from './lib/table.ts';
import { parseGoBench, type GoBenchRun } from './lib/goBench.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GO_MODULE = path.join(ROOT, 'go');

const { values } = parseArgs({ options: { count: { type: 'string' }, quick: { type: 'boolean' } }, strict: false });
const count = Number(typeof values.count === 'string' ? values.count : values.quick ? 3 : 5);

const GOALS = { attachedUs: 50, detachedNs: 100, detachedAllocs: 0 };

/** Runs benchmarks matching `pattern`, bounded by `benchtime`; every run's figures. */
function goBench(pattern: string, benchtime: string): GoBenchRun[] {
  const args = ['test', '-run', '^$', '-bench', pattern, '-benchmem', `-benchtime=${benchtime}`, `-count=${count}`, './controllerlab'];
  console.log(`go ${args.join(' ')}   (in go/)`);
  const r = spawnSync('go', args, { cwd: GO_MODULE, encoding: 'utf8', timeout: 300_000 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`go test -bench exited ${r.status ?? r.signal}:\n${r.stdout}${r.stderr}`);
  return parseGoBench(r.stdout);
}

interface Figures {
  median: number;
  min: number;
  max: number;
}

/** One metric of one benchmark over its runs. */
function figures(runs: GoBenchRun[], name: string, unit: string): Figures {
  const values = runs.filter((r) => r.name === name).map((r) => r.metrics[unit]).filter((v): v is number => v !== undefined);
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;
const nanos = (ns: number) => `${ns.toFixed(1)} ns`;
const mark = (ok: boolean) => (ok ? '✓' : '✗');

if (spawnSync('go', ['version']).error) {
  console.log('skipped: the Go toolchain (`go`) is not on the PATH');
  process.exit(0);
}

const started = performance.now();
// A reconcile through the whole pipeline takes tens of µs: a fixed count bounds the time.
const pipeline = goBench('^BenchmarkReconcilePipeline(Attached|Detached)$', '3000x');
const call = goBench('^BenchmarkReconcile(Detached|WithoutControllerLab)$', '0.2s');

const ATTACHED = 'BenchmarkReconcilePipelineAttached';
const BARE = 'BenchmarkReconcilePipelineDetached';
const DETACHED = 'BenchmarkReconcileDetached';
const WITHOUT = 'BenchmarkReconcileWithoutControllerLab';

const spread = (f: Figures, fmt: (n: number) => string) => `${fmt(f.median)} (${fmt(f.min)}–${fmt(f.max)})`;
const signed = (n: number, fmt: (n: number) => string) => `${n >= 0 ? '+' : '−'}${fmt(Math.abs(n))}`;
const count1 = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '–');
const bytes = (n: number) => `${count1(n)} B`;

/** A row: a metric with Controller Lab and without, the difference, and the goal it is held to. */
function row(label: string, withLab: Figures, withoutLab: Figures, fmt: (n: number) => string, goal?: { text: string; met: (withLab: number, difference: number) => boolean }): string[] {
  const difference = withLab.median - withoutLab.median;
  const times = withLab.median / withoutLab.median;
  const ratio = Number.isFinite(times) && withoutLab.median > 0 && fmt !== count1 && fmt !== bytes ? ` (${times.toFixed(1)}×)` : '';
  return [label, spread(withLab, fmt), spread(withoutLab, fmt), `${signed(difference, fmt)}${ratio}`, goal?.text ?? '', goal ? mark(goal.met(withLab.median, difference)) : ''];
}

const attachedGoal = { text: `< ${GOALS.attachedUs} µs more`, met: (_: number, d: number) => d < GOALS.attachedUs * 1000 };
const rows = [
  row('attached, not stopped: wall time / reconcile', figures(pipeline, ATTACHED, 'ns/op'), figures(pipeline, BARE, 'ns/op'), us, attachedGoal),
  row('attached, not stopped: CPU time / reconcile', figures(pipeline, ATTACHED, 'cpu-ns/op'), figures(pipeline, BARE, 'cpu-ns/op'), us, attachedGoal),
  row('attached, not stopped: allocations / reconcile', figures(pipeline, ATTACHED, 'allocs/op'), figures(pipeline, BARE, 'allocs/op'), count1),
  row('attached, not stopped: bytes allocated / reconcile', figures(pipeline, ATTACHED, 'B/op'), figures(pipeline, BARE, 'B/op'), bytes),
  row('detached: time / reconcile call', figures(call, DETACHED, 'ns/op'), figures(call, WITHOUT, 'ns/op'), nanos, { text: `< ${GOALS.detachedNs} ns`, met: (w) => w < GOALS.detachedNs }),
  row('detached: allocations / reconcile call', figures(call, DETACHED, 'allocs/op'), figures(call, WITHOUT, 'allocs/op'), count1, { text: `${GOALS.detachedAllocs}`, met: (w) => w === GOALS.detachedAllocs }),
];

console.log(`\nGo module cost per reconcile: median of ${count} runs (min–max); load average ${loadavg()[0]!.toFixed(1)}; ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
console.log(markdownTable(['measurement', 'with Controller Lab', 'same controller without', 'difference', 'goal', 'met'], rows));

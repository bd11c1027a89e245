// What recording every watch event's fate costs ("why (not)?", the timeline's misses), end to end,
// against the goal of < 2 µs per event in both languages: the controller's process recording and
// sending it, plus the session's process (the CLI, the debug adapter, the extension) keeping it.
// - TypeScript, in the controller's process: the controller loop building each fate (the key's
//   state read from the real workqueue), the host's batching into one string per batch
//   (fateBatch.ts) and the structured-clone encoding of its IPC channel (`serialization:
//   'advanced'`). Measured as the same loop fed the same events with fates sent, against fates
//   dropped where the loop sends them; building a fate is measured on its own (fateOf and the
//   object, as the loop makes it) and added. CPU time of this process.
// - TypeScript, in the session's process: decoding the IPC messages and keeping each batch in the
//   FateLog, as it came.
// - Go (controllerlab), from the module's benchmarks (go/controllerlab/fates_bench_test.go): an
//   enqueued and a filtered event's fate, sent, batched and written to a parent reading the
//   socket; and in the session, the JSON lines parsed (as many fates a line as the Go benchmark
//   wrote, at most MAX_GO_LINE) and each batch kept.
// - Both: decoding and indexing the kept batches, paid only when a why-question or the timeline
//   asks (or when 64 MB of batches wait). Reported, not part of the path.
//
//   npm run bench -- [--quick]          (or: node bench/eventFates.bench.ts --events 200000)

import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deserialize, serialize } from 'node:v8';
import { median } from './lib/stats.ts';
import { markdownTable } from './lib/table.ts';
import { parseGoBench } from './lib/goBench.ts';
import { realClock } from '../src/shared/clock.ts';
import type { KubeObject } from '../src/shared/k8s.ts';
import { defineController, FateBatchWriter, predicate, type EventFate, type HostMessage, type KindRef } from '../src/controllerProtocol/index.ts';
import { ControllerLoop } from '../src/host/engine/controllerLoop.ts';
import { fateOf } from '../src/host/engine/eventSource.ts';
import type { InformerEvent, KindInformer, ObjectWriter } from '../src/host/engine/ports.ts';
import { HostSender } from '../src/host/hostSender.ts';
import { WorkQueueAdapter } from '../src/host/queueAdapter.ts';
import { createWorkQueue } from '../src/workqueue/index.ts';
import { FateLog } from '../src/runtime/fateLog.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { events: { type: 'string' }, runs: { type: 'string' }, quick: { type: 'boolean' } }, strict: false });
const EVENTS = Number(typeof values.events === 'string' ? values.events : values.quick ? 50_000 : 200_000);
const RUNS = Number(typeof values.runs === 'string' ? values.runs : values.quick ? 3 : 5);
const GOAL_NS = 2000;
const KEYS = 1000;
/** Fates per Go line at most, whatever the Go benchmark's lines carried: its writer falls far behind. */
const MAX_GO_LINE = 1000;

const CONFIGMAP: KindRef = { apiVersion: 'v1', kind: 'ConfigMap' };

/** An informer fed by hand: the loop's port, nothing else. */
class HandFedInformer implements KindInformer {
  readonly kind = CONFIGMAP;
  private readonly handlers: ((e: InformerEvent) => void)[] = [];
  onEvent(h: (e: InformerEvent) => void): void {
    this.handlers.push(h);
  }
  start(): void {}
  stop(): void {}
  hasSynced(): boolean {
    return true;
  }
  get(): KubeObject | undefined {
    return undefined;
  }
  list(): KubeObject[] {
    return [];
  }
  emit(e: InformerEvent): void {
    for (const h of this.handlers) h(e);
  }
}

const noWrites = {} as ObjectWriter;

/** This process's CPU time (user + system), in ns: on a shared, loaded machine wall time counts others' work. */
function cpuNs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

/** Half the events pass (`even` label), half are filtered out: both fates are common. */
const evenOnly = predicate('EvenOnly', (e) => e.object.metadata.labels?.['even'] === 'true');

function events(): InformerEvent[] {
  return Array.from({ length: EVENTS }, (_, i) => {
    const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'shop', name: `web-${i % KEYS}`, resourceVersion: String(1000 + i), labels: { even: String(i % 2 === 0) } } };
    return { type: 'MODIFIED', object, old: { ...object, metadata: { ...object.metadata, resourceVersion: String(999 + i) } } };
  });
}

/** CPU ns per event through the controller loop, fates sent over the (encoded) channel or dropped at the loop. */
async function loopRun(sendFates: boolean, feed: InformerEvent[]): Promise<{ ns: number; batches: Buffer[] }> {
  const informer = new HandFedInformer();
  const batches: Buffer[] = [];
  // What the IPC channel does with each message the host sends: a structured clone.
  const sender = new HostSender((m: HostMessage) => void batches.push(serialize(m)));
  const queue = new WorkQueueAdapter(createWorkQueue<string>({ name: 'bench', clock: realClock }), realClock);
  const loop = new ControllerLoop({
    definition: defineController({ name: 'bench', for: { ...CONFIGMAP, predicates: [evenOnly] }, reconcile: () => {} }),
    informers: [informer],
    queue,
    writer: noWrites,
    clock: realClock,
    workers: 1,
    reconcileTimeoutMs: 10_000,
    mirrorCache: false,
    send: (m) => (sendFates || m.type !== 'fate' ? sender.send(m) : undefined),
  });
  await loop.start();
  const started = cpuNs();
  for (const e of feed) informer.emit(e);
  sender.flush();
  const ns = (cpuNs() - started) / feed.length;
  await loop.stop();
  if (batches.length === 0) throw new Error('nothing was sent');
  return { ns, batches };
}

/**
 * CPU ns per fate for the session: decode the fate messages of the host's IPC batches, keep each.
 * The fate messages are measured on their own, each as the channel encoded it inside its batch:
 * taking the rest of a batch (the queue snapshots) away leaves mostly noise on a loaded machine.
 */
function sessionRun(batches: readonly Buffer[]): { ns: number; log: FateLog } {
  const encoded = batches
    .flatMap((b) => {
      const m = deserialize(b) as HostMessage;
      return m.type === 'batch' ? m.messages : [m];
    })
    .filter((m) => m.type === 'fates')
    .map((m) => serialize(m));
  const fates = new FateLog();
  const started = cpuNs();
  for (const b of encoded) {
    const m = deserialize(b) as HostMessage;
    if (m.type === 'fates') fates.addBatch(m.data, m.count);
  }
  const ns = (cpuNs() - started) / Math.max(1, fates.count);
  if (fates.count !== EVENTS) throw new Error(`kept ${fates.count} fates of ${EVENTS} events`);
  return { ns, log: fates };
}

/** CPU ns per fate to answer the first why-question: every kept batch decoded and indexed. */
function indexRun(log: FateLog): number {
  const started = cpuNs();
  const about = log.about('ConfigMap', 'shop/web-0');
  const ns = (cpuNs() - started) / log.count;
  if (about.length === 0) throw new Error('nothing indexed');
  return ns;
}

/** The JSON lines a Go program writes for EVENTS filtered fates, `perLine` fates a line. */
function goLines(perLine: number): string[] {
  const lines: string[] = [];
  const batch = new FateBatchWriter();
  const line = () => lines.push(JSON.stringify({ type: 'fates', count: batch.count, data: batch.finish() }));
  for (let i = 0; i < EVENTS; i++) {
    batch.add({ controller: 'bench', type: 'MODIFIED', apiVersion: 'v1', kind: 'ConfigMap', key: `shop/web-${i % KEYS}`, resourceVersion: String(1000 + i), via: 'for', fate: 'filtered', predicate: 'predicate.GenerationChangedPredicate', at: 1_700_000_000_000 + i });
    if (batch.count >= perLine) line();
  }
  if (batch.count > 0) line();
  return lines;
}

/** CPU ns per fate for the session of a Go program: its JSON lines parsed, each batch kept. */
function goSessionRun(lines: readonly string[]): number {
  const fates = new FateLog();
  const started = cpuNs();
  for (const line of lines) {
    const m = JSON.parse(line) as HostMessage;
    if (m.type === 'fates') fates.addBatch(m.data, m.count);
  }
  const ns = (cpuNs() - started) / EVENTS;
  if (fates.count !== EVENTS) throw new Error(`kept ${fates.count} fates of ${EVENTS}`);
  return ns;
}

/** ns to build one fate as the loop does: the key's state before the add, the object. */
function buildRun(): number {
  const queue = new WorkQueueAdapter(createWorkQueue<string>({ name: 'bench', clock: realClock }), realClock);
  for (let k = 0; k < KEYS; k += 2) queue.add(`shop/web-${k}`);
  const keys = Array.from({ length: KEYS }, (_, k) => `shop/web-${k}`);
  let sink: EventFate | undefined;
  const started = cpuNs();
  for (let i = 0; i < EVENTS; i++) {
    const key = keys[i % KEYS] as string;
    const now = realClock.now();
    sink = { controller: 'bench', type: 'MODIFIED', apiVersion: 'v1', kind: 'ConfigMap', key, resourceVersion: '1000', via: 'for', request: key, ...fateOf(queue.stateOf(key), undefined, now), at: now };
  }
  const ns = (cpuNs() - started) / EVENTS;
  if (!sink) throw new Error('nothing built');
  return ns;
}

const started = performance.now();
const feed = events();
// Warm up both paths (JIT), then alternate so drift on a shared machine hits both alike.
await loopRun(true, feed.slice(0, 20_000));
await loopRun(false, feed.slice(0, 20_000));
const withFates: number[] = [];
const withoutFates: number[] = [];
const building: number[] = [];
const session: number[] = [];
const indexing: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const sent = await loopRun(true, feed);
  const dropped = await loopRun(false, feed);
  withFates.push(sent.ns);
  withoutFates.push(dropped.ns);
  building.push(buildRun());
  const kept = sessionRun(sent.batches);
  session.push(kept.ns);
  indexing.push(indexRun(kept.log));
}
const tsCost = median(withFates) - median(withoutFates) + median(building);
const tsTotal = tsCost + median(session);

const ns = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ns` : '–');
const mark = (n: number) => (n < GOAL_NS ? '✓' : '✗');
const rows: string[][] = [
  ['TS: an event through the controller loop, fates sent', ns(median(withFates)), ''],
  ['TS: the same, fates dropped where the loop sends them', ns(median(withoutFates)), ''],
  ['TS: building a fate (key state, object)', ns(median(building)), ''],
  ["TS: recording a fate in the controller's process (difference + building)", ns(tsCost), ''],
  ['TS: keeping it in the session (IPC decode, FateLog)', ns(median(session)), ''],
  ['**TS: end to end (controller + session)**', `**${ns(tsTotal)}**`, `${mark(tsTotal)} < ${GOAL_NS} ns`],
  ['TS: decoding and indexing, once asked (why, timeline)', ns(median(indexing)), 'not on the path'],
];

if (spawnSync('go', ['version']).error) {
  rows.push(['Go: skipped (no `go` on the PATH)', '', '']);
} else {
  const args = ['test', '-run', '^$', '-bench', '^BenchmarkEventFate(Enqueued|Filtered)$', '-benchmem', '-benchtime=300000x', `-count=${RUNS}`, './controllerlab'];
  console.log(`go ${args.join(' ')}   (in go/)`);
  const r = spawnSync('go', args, { cwd: path.join(ROOT, 'go'), encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`go test -bench exited ${r.status ?? r.signal}:\n${r.stdout}${r.stderr}`);
  const runs = parseGoBench(r.stdout);
  const of = (name: string, unit: string) => median(runs.filter((x) => x.name === name).map((x) => x.metrics[unit]).filter((v): v is number => v !== undefined));
  const perLine = Math.max(1, Math.min(MAX_GO_LINE, Math.floor(Math.min(of('BenchmarkEventFateEnqueued', 'fates/line'), of('BenchmarkEventFateFiltered', 'fates/line')))));
  const lines = goLines(perLine);
  const goSession: number[] = [];
  for (let i = 0; i < RUNS; i++) goSession.push(goSessionRun(lines));
  const goKeep = median(goSession);
  rows.push([`Go: keeping it in the session (JSON lines of ${perLine} fates parsed, FateLog)`, ns(goKeep), '']);
  for (const [name, label] of [['BenchmarkEventFateEnqueued', 'enqueued'], ['BenchmarkEventFateFiltered', 'filtered']] as const) {
    const cpu = of(name, 'cpu-ns/op');
    rows.push([`Go: recording ${label === 'enqueued' ? 'an' : 'a'} ${label} event's fate, CPU (every goroutine)`, ns(cpu), '']);
    rows.push([`Go: the same, wall time`, ns(of(name, 'ns/op')), '']);
    rows.push([`**Go: end to end, ${label} (CPU + session)**`, `**${ns(cpu + goKeep)}**`, `${mark(cpu + goKeep)} < ${GOAL_NS} ns`]);
  }
}

console.log(`\nRecording event fates: median of ${RUNS} runs of ${EVENTS.toLocaleString('en-US')} events; load average ${loadavg()[0]!.toFixed(1)}; ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
console.log(markdownTable(['measurement', 'per event', 'goal'], rows));

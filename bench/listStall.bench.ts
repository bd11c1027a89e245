// `node bench/listStall.bench.ts [--pods 50000] [--mbps 30] [--gzip]`: the longest event-loop
// stall while a Pods informer (all namespaces) lists a large cluster in ONE page, as kube-apiserver
// answers a list at resourceVersion=0 from its watch cache (it ignores `limit` then). The same code
// path as the extension host's (the views' model: Lab, InformerSession, an informer taking the list
// in 10 ms slices), without VS Code, so it takes seconds instead of minutes.
//
// The API server is a child process streaming a pre-rendered list of realistic ~5.7 KB Pods
// (bench/lib/podJson.ts) at `--mbps` (default 30 MB/s, about what the simulated cluster sends; 0 =
// as fast as the socket takes it), gzip-compressed with `--gzip` (kube-apiserver compresses lists
// for clients that accept gzip). Prints the longest stall, each stall over 50 ms with what the
// informer was doing then, the garbage collections over 20 ms, and the time to synced.
// Add `--cpu-prof` to the node command line to see what a stall is made of.
import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { podJson } from './lib/podJson.ts';

const SELF = fileURLToPath(import.meta.url);
const { values } = parseArgs({ options: { serve: { type: 'boolean' }, pods: { type: 'string' }, mbps: { type: 'string' }, gzip: { type: 'boolean' } } });
const PODS = Number(values.pods ?? 50_000);
const MBPS = Number(values.mbps ?? 30);
const BIG = 10_000;
const PATH = '/api/v1/pods';

// ---- the API server, in a process of its own ----------------------------------------------------

function renderList(): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < PODS; i++) {
    const namespace = i < BIG ? 'big' : `shop-${i % 8}`;
    // kube-apiserver lists built-in kinds with bare items.
    parts.push(podJson(namespace, i, 1000 + i, 0).replace('{"apiVersion":"v1","kind":"Pod",', '{'));
  }
  return Buffer.from(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"${1000 + PODS}"},"items":[${parts.join(',')}]}`);
}

async function serve(): Promise<void> {
  const plain = renderList();
  const body = values.gzip ? gzipSync(plain, { level: 1 }) : plain;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== PATH) return void res.writeHead(404).end();
    if (url.searchParams.get('watch') === 'true') return void res.writeHead(200, { 'Content-Type': 'application/json' }).flushHeaders();
    res.writeHead(200, { 'Content-Type': 'application/json', ...(values.gzip ? { 'Content-Encoding': 'gzip' } : {}) });
    // Streamed in 32 KB writes at the given rate, as a server encodes a list item after item.
    const CHUNK = 32 * 1024;
    const started = performance.now();
    let at = 0;
    const pump = (): void => {
      while (at < body.length) {
        if (MBPS > 0) {
          const due = started + (at / (MBPS * 1024 * 1024)) * 1000 * (values.gzip ? plain.length / body.length : 1);
          const wait = due - performance.now();
          if (wait > 1) return void setTimeout(pump, wait);
        }
        const more = res.write(body.subarray(at, at + CHUNK));
        at += CHUNK;
        if (!more) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port, bytes: plain.length, sent: body.length }));
  process.on('disconnect', () => process.exit(0));
}

// ---- the extension host's side ------------------------------------------------------------------

const GC_KINDS: Record<number, string> = { 1: 'scavenge', 2: 'minor mark-sweep', 4: 'mark-compact', 8: 'incremental marking', 16: 'weak callbacks' };

interface Mark {
  at: number;
  what: string;
}

async function measure(): Promise<void> {
  const { Lab } = await import('../src/vscode/model/lab.ts');
  const { loadCluster } = await import('../src/kube/cluster.ts');
  const { realClock } = await import('../src/shared/clock.ts');
  const child = fork(SELF, ['--serve', '--pods', String(PODS), '--mbps', String(MBPS), ...(values.gzip ? ['--gzip'] : [])], { execArgv: [] });
  const ready = await new Promise<{ port: number; bytes: number; sent: number }>((resolve) => child.once('message', resolve as never));
  const dir = mkdtempSync(join(tmpdir(), 'cl-list-stall-'));
  const kubeconfig = join(dir, 'config');
  writeFileSync(kubeconfig, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'bench',
    clusters: [{ name: 'bench', cluster: { server: `http://127.0.0.1:${ready.port}` } }],
    users: [{ name: 'bench', user: { token: 't' } }],
    contexts: [{ name: 'bench', context: { cluster: 'bench', user: 'bench' } }],
  }));
  const lab = new Lab({
    clock: realClock,
    maxTimelineEvents: 10_000,
    createBackend: async () => {
      const cluster = loadCluster({ kubeconfig });
      // Counts the items decoded, to tell a stall's decoding from its garbage collection.
      const listerWatcher = cluster.listerWatcher.bind(cluster);
      cluster.listerWatcher = (resource, scope) => {
        const lw = listerWatcher(resource, scope);
        const list = lw.list.bind(lw);
        lw.list = (options, signal, prepareItem, prepareText) => list(options, signal, prepareItem && ((item) => (decoded++, prepareItem(item))), prepareText);
        return lw;
      };
      return { kind: 'kubeconfig', name: 'bench', cluster, dispose: async () => cluster.close() };
    },
  });
  const session = await lab.connect({ kind: 'kubeconfig', kubeconfig }, 'bench');
  // What the views would do on each change: read the progress the status bar shows.
  let changes = 0;
  lab.onDidChange(() => changes++);

  const marks: Mark[] = [];
  const mark = (what: string): void => void marks.push({ at: performance.now(), what });
  const gcs: { at: number; ms: number; kind: number }[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.duration > 20) gcs.push({ at: e.startTime, ms: e.duration, kind: ((e as { detail?: { kind?: number } }).detail?.kind ?? 0) });
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  // Stalls: a 5 ms timer chain, each late tick is a turn that blocked.
  const stalls: { from: number; ms: number; items: number }[] = [];
  let decoded = 0;
  let decodedAtTick = 0;
  let last = performance.now();
  let ticking = true;
  const tick = (): void => {
    const now = performance.now();
    if (now - last > 50) stalls.push({ from: last, ms: now - last, items: decoded - decodedAtTick });
    decodedAtTick = decoded;
    last = now;
    if (ticking) setTimeout(tick, 5);
  };
  setTimeout(tick, 5);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();

  let handoverTurnMs = NaN;
  const started = performance.now();
  mark('start');
  const informer = lab.startInformer(session.id, {
    resource: { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, verbs: ['list', 'watch'] } as never,
    namespace: '',
    labelSelector: '',
  });
  informer.informer.onProbe((p) => {
    if (p.kind === 'listItems' && p.items % 10_000 !== 0) return;
    if (p.kind === 'listEnd') {
      // The rest of this turn: the list handed to the store (and the first slice of the views').
      const at = performance.now();
      setImmediate(() => (handoverTurnMs = performance.now() - at));
    }
    if (p.kind === 'listStart' || p.kind === 'listItems' || p.kind === 'listPage' || p.kind === 'listEnd') mark(p.kind === 'listItems' ? `listItems ${p.items}` : p.kind);
  });
  await informer.informer.waitForSync();
  mark('synced');
  const syncedMs = performance.now() - started;
  // And a while after: the handover and its garbage.
  await new Promise((r) => setTimeout(r, 3000));
  ticking = false;
  delay.disable();
  gcObserver.disconnect();
  const objects = informer.informer.indexer.list().length;
  const phaseAt = (t: number): string => [...marks].reverse().find((m) => m.at <= t)?.what ?? 'before';
  const rel = (t: number): string => `${((t - started) / 1000).toFixed(2)} s`;
  console.log(`${PODS.toLocaleString('en-US')} Pods, one page of ${(ready.bytes / 1024 / 1024).toFixed(0)} MB${values.gzip ? ` (${(ready.sent / 1024 / 1024).toFixed(0)} MB gzip)` : ''} at ${MBPS > 0 ? `${MBPS} MB/s` : 'full speed'}`);
  console.log(`synced in ${(syncedMs / 1000).toFixed(1)} s, ${objects.toLocaleString('en-US')} objects cached, ${changes} view changes`);
  console.log(`longest event-loop stall: ${(delay.max / 1e6).toFixed(0)} ms (monitorEventLoopDelay, 10 ms resolution); the turn that hands the list to the store: ${handoverTurnMs.toFixed(0)} ms`);
  const gcIn = (from: number, to: number): string => gcs.filter((g) => g.at >= from && g.at < to).map((g) => `${g.ms.toFixed(0)} ms ${GC_KINDS[g.kind] ?? g.kind}`).join(', ');
  for (const s of stalls.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
    const gc = gcIn(s.from, s.from + s.ms);
    console.log(`  stall ${s.ms.toFixed(0)} ms at ${rel(s.from)} [${s.from.toFixed(0)}] (after ${phaseAt(s.from)}): ${s.items} items decoded${gc ? `, gc ${gc}` : ''}`);
  }
  console.log(JSON.stringify({ pods: PODS, syncedMs: Math.round(syncedMs), loopMaxMs: Math.round(delay.max / 1e6), objects, handoverTurnMs: Math.round(handoverTurnMs), heapUsedMB: Math.round(process.memoryUsage().heapUsed / 1048576) }));
  await lab.disconnect(session.id);
  child.disconnect();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

if (values.serve) await serve();
else await measure();

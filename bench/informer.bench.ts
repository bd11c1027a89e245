// Informer benchmark: how fast and how heavy our informer (SharedInformer over the kube HTTP
// ListerWatcher) is when it syncs a list and follows a watch, against client-go's shared informer
// (a Go program, bench/client-go-informer, over JSON and protobuf), client-node's makeInformer, and
// the parse limit (split lines + JSON.parse + Map.set over the same HTTP client path, nothing else),
// all on the same server and stream: ~1 KB ConfigMaps, and ~5.5 KB Pods as a real cluster returns
// them. Each contender runs in a fresh process; medians of several runs; ratios are taken within
// each run, then their median is reported.
//
//   npm run bench:informer [-- --quick] [-- --workloads configmaps,pods --sizes 1000,10000 --pod-sizes 10000
//                          --events 100000 --pod-events 20000 --contenders client-go,controller-lab --reps 3 --prof
//                          --without-cli-flags]
//   controller-lab runs with the V8 flags the command's shebang gives node (CLI_NODE_FLAGS in
//   scripts/cliBuild.mjs) and keeps managedFields, as a controller's informer under `controller-lab
//   run` does; --without-cli-flags runs it on Node's defaults. controller-lab-lean drops
//   managedFields (as `controller-lab watch` and the extension's views do) and runs as the
//   extension does, in a host whose flags are VS Code's: Node's defaults. The peers never get flags: the product cannot give them to client-node's
//   users, nor to the parse limit, which stands for any plain Node script.
//   npm run bench:informer -- --core    the informer pipeline alone, in process, no HTTP: how much
//                                       each event costs on top of JSON.parse + Map.set (for
//                                       working on src/informer without network noise)
//   npm run bench:informer -- --core --alloc   adds bytes allocated per event and the top
//                                       allocation sites (deterministic, unlike time on a busy machine)
//   After its tables it runs the whole `controller-lab watch` process against the parse limit's
//   (bench/watchCli.bench.ts, 10k ConfigMaps and 100k events) and prints that table beside them;
//   --without-whole-process leaves it out.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics } from 'node:v8';
import { CLI_NODE_FLAGS } from '../scripts/cliBuild.mjs';
import { pinSelf, runChild, runProgram } from './lib/child.ts';
import { buildClientGoPeer, CLIENT_GO_ENV } from './lib/clientGoPeer.ts';
import { median, mb, ms, ratio, si } from './lib/stats.ts';
import { BENCH_NAMESPACE, listPathOf, renderStream, startStreamServer } from './lib/streamServer.ts';
import type { Workload } from './lib/streamServer.ts';
import type { KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
import type * as ContenderModules from './lib/contenderModules.ts';
import { markdownTable, textTable } from './lib/table.ts';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');

// Node contenders run this file as a child; the client-go peer is a Go program (bench/client-go-informer).
const NODE_CONTENDERS = ['parse-limit', 'controller-lab', 'controller-lab-lean', 'client-node'] as const;
const GO_CONTENDERS = ['client-go', 'client-go-protobuf'] as const;
type NodeContender = (typeof NODE_CONTENDERS)[number];
type Contender = NodeContender | (typeof GO_CONTENDERS)[number];
/** Ours as the extension runs it on Pods: managedFields dropped by the informer's transform. */
const LEAN: Contender = 'controller-lab-lean';

interface Measurement {
  syncMs: number;
  watchMs: number;
  eventsPerSec: number;
  cpuMs: number;
  /** CPU spent per watch event, sync to last event: steadier than wall time on a busy machine. */
  watchCpuUs: number;
  peakRssBytes: number;
  /** Data heap (JIT code and bytecode excluded; for Go: HeapAlloc) still live after the run and a full GC. */
  cacheHeapBytes: number;
  cached: number;
}

const { values } = parseArgs({
  options: {
    child: { type: 'string' },
    server: { type: 'string' },
    kubeconfig: { type: 'string' },
    workload: { type: 'string' },
    workloads: { type: 'string' },
    objects: { type: 'string' },
    events: { type: 'string' },
    'pod-events': { type: 'string' },
    sizes: { type: 'string' },
    'pod-sizes': { type: 'string' },
    contenders: { type: 'string' },
    reps: { type: 'string' },
    quick: { type: 'boolean' },
    prof: { type: 'boolean' },
    'import-child': { type: 'string' },
    core: { type: 'boolean' },
    alloc: { type: 'boolean' },
    'core-child': { type: 'string' },
    'without-cli-flags': { type: 'boolean' },
    'without-whole-process': { type: 'boolean' },
  },
});


// ---- the orchestrator ---------------------------------------------------------------------------

interface BenchConfig {
  workload: Workload;
  objects: number;
  events: number;
}

function configs(quick: boolean): BenchConfig[] {
  const workloads = (values.workloads ?? 'configmaps,pods').split(',') as Workload[];
  const sizes = (values.sizes ?? (quick ? '1000,10000' : '1000,10000,50000')).split(',').map(Number);
  const podSizes = (values['pod-sizes'] ?? (quick ? '10000' : '10000,50000')).split(',').map(Number);
  const events = Number(values.events ?? (quick ? 20_000 : 100_000));
  // Pods are 5.5 KB: 20k status updates are 110 MB of JSON, as long a stream as 100k ConfigMaps.
  const podEvents = Number(values['pod-events'] ?? (quick ? 5_000 : 20_000));
  const out: BenchConfig[] = [];
  if (workloads.includes('configmaps')) for (const objects of sizes) out.push({ workload: 'configmaps', objects, events });
  if (workloads.includes('pods')) for (const objects of podSizes) out.push({ workload: 'pods', objects, events: podEvents });
  return out;
}

/** Within-run ratios of one of our rows against its peers. */
interface Ratios {
  config: BenchConfig;
  ours: Contender;
  evVsParse: number[];
  syncVsClientGo: number[];
  syncVsClientGoPb: number[];
  rssVsClientGo: number[];
  rssVsClientGoPb: number[];
  heapVsParse: number[];
  evVsClientNode: number[];
  ceiling: number[];
}

async function orchestrate(): Promise<void> {
  const quick = values.quick ?? false;
  const plan = configs(quick);
  // Three by default: the machine is shared, medians of three are what the tables report.
  const reps = Number(values.reps ?? (quick ? 1 : 3));
  const work = mkdtempSync(path.join(tmpdir(), 'cl-bench-'));
  const profDir = path.join(ROOT, '.bench-output', 'profiles');
  if (values.prof) mkdirSync(profDir, { recursive: true });
  const only = values.contenders?.split(',');
  const bundled = await bundleSelf();
  const goPeer = !only || only.some((c) => c.startsWith('client-go')) ? await buildClientGoPeer(work) : undefined;
  // The server on CPU 0, each contender alone on CPU 1: without pinning, the two share a core at
  // random moments and the same contender's CPU per event swings by 30% from one run to the next.
  const pinned = pinSelf(0);
  const server = await startStreamServer();
  const kubeconfig = path.join(work, 'kubeconfig');
  // client-node refuses plain http unless insecure-skip-tls-verify is set.
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'bench', cluster: { server: server.url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'bench', user: { token: 'bench' } }],
      contexts: [{ name: 'bench', context: { cluster: 'bench', user: 'bench', namespace: BENCH_NAMESPACE } }],
      'current-context': 'bench',
    }),
  );
  const loadBefore = loadavg()[0]!;
  const cliFlags = values['without-cli-flags'] ? [] : CLI_NODE_FLAGS;
  console.error(`informer benchmark: ${plan.map((c) => `${si(c.objects, 0)} ${c.workload}`).join(', ')}; ${reps} run(s) each, node ${process.version}${goPeer ? ', client-go v0.37.0' : ''}`);

  const rows: { config: BenchConfig; contender: Contender; runs: Measurement[] }[] = [];
  const ratios: Ratios[] = [];
  try {
    for (const config of plan) {
      const { workload, objects, events } = config;
      const stream = renderStream({ objects, events, workload });
      if (goPeer) await goPeer.renderProtobuf(stream, work);
      const contenders: Contender[] = [...NODE_CONTENDERS, ...(goPeer ? GO_CONTENDERS : [])].filter(
        // Dropping managedFields changes nothing for objects that have none.
        (c) => (c !== LEAN || workload === 'pods') && (!only || only.includes(c)),
      );
      const perContender = new Map<Contender, Measurement[]>(contenders.map((c) => [c, []]));
      const ours = contenders.filter((c) => c.startsWith('controller-lab'));
      const rs = ours.map((o): Ratios => ({ config, ours: o, evVsParse: [], syncVsClientGo: [], syncVsClientGoPb: [], rssVsClientGo: [], rssVsClientGoPb: [], heapVsParse: [], evVsClientNode: [], ceiling: [] }));
      for (let rep = 0; rep < reps; rep++) {
        // Rotate the order so no contender always runs first (or last) on a warming machine.
        const order = contenders.map((_, i) => contenders[(i + rep) % contenders.length]!);
        const run = new Map<Contender, Measurement>();
        for (const contender of order) {
          server.serve(stream);
          const common = ['--server', server.url, '--objects', String(objects), '--events', String(events)];
          const cpu = pinned ? 1 : undefined;
          const child = contender.startsWith('client-go')
            ? await runProgram<Measurement>([goPeer!.binary, 'run', ...common, '--resource', workload, '--namespace', BENCH_NAMESPACE, ...(contender === 'client-go-protobuf' ? ['--protobuf'] : [])], { cpu, env: CLIENT_GO_ENV })
            : await runChild<Measurement>(bundled, ['--child', contender, '--kubeconfig', kubeconfig, '--workload', workload, ...common], {
                nodeFlags: ['--expose-gc', ...(contender === 'controller-lab' ? cliFlags : []), ...(values.prof ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=${contender}-${workload}-${objects}-${rep}.cpuprofile`] : [])],
                cpu,
              });
          if (!child.result) {
            console.error(`  ${contender} ${objects} ${workload}: FAILED ${child.error}`);
            continue;
          }
          const m = child.result;
          if (m.cached !== stream.finalObjects) console.error(`  ${contender} ${objects}: cache holds ${m.cached}, expected ${stream.finalObjects}`);
          run.set(contender, m);
          perContender.get(contender)!.push(m);
          console.error(`  ${si(objects, 0)} ${workload} ${contender.padEnd(19)} sync ${ms(m.syncMs).padStart(8)}  ${si(m.eventsPerSec)} ev/s  cpu ${ms(m.cpuMs)}  rss ${mb(m.peakRssBytes)}  heap ${mb(m.cacheHeapBytes)}`);
        }
        const parse = run.get('parse-limit');
        const cn = run.get('client-node');
        const cg = run.get('client-go');
        const cgPb = run.get('client-go-protobuf');
        for (const r of rs) {
          const o = run.get(r.ours);
          if (!o) continue;
          if (parse) {
            r.evVsParse.push(o.eventsPerSec / parse.eventsPerSec);
            r.heapVsParse.push(o.cacheHeapBytes / parse.cacheHeapBytes);
          }
          if (cg) {
            r.syncVsClientGo.push(o.syncMs / cg.syncMs);
            r.rssVsClientGo.push(o.peakRssBytes / cg.peakRssBytes);
          }
          if (cgPb) {
            r.syncVsClientGoPb.push(o.syncMs / cgPb.syncMs);
            r.rssVsClientGoPb.push(o.peakRssBytes / cgPb.peakRssBytes);
          }
          if (cn) r.evVsClientNode.push(o.eventsPerSec / cn.eventsPerSec);
          // No informer that parses every event can beat client-node by more than the parse limit does.
          if (parse && cn) r.ceiling.push(parse.eventsPerSec / cn.eventsPerSec);
        }
      }
      for (const c of contenders) rows.push({ config, contender: c, runs: perContender.get(c)! });
      ratios.push(...rs);
    }
  } finally {
    await server.close();
  }

  const imports = await importCosts(work);
  rmSync(work, { recursive: true, force: true });

  const header = ['workload', 'objects', 'contender', 'sync', 'watch events/s', 'CPU / watch event', 'CPU total', 'peak RSS', 'cache heap'];
  const table = rows.map(({ config, contender, runs }) => {
    const med = (f: (m: Measurement) => number) => median(runs.map(f));
    return [config.workload, si(config.objects, 0), contender, ms(med((m) => m.syncMs)), si(med((m) => m.eventsPerSec)), `${med((m) => m.watchCpuUs).toFixed(1)} µs`, ms(med((m) => m.cpuMs)), mb(med((m) => m.peakRssBytes)), mb(med((m) => m.cacheHeapBytes))];
  });
  const check = (v: number, ok: boolean) => `${ratio(v)} ${Number.isFinite(v) ? (ok ? '✓' : '✗') : ''}`.trim();
  const ratioHeader = ['workload', 'objects', 'ours', 'peak RSS vs client-go (≤ 0.6×)', 'same, vs client-go protobuf', 'cache heap vs parse limit (≤ 0.5×)', 'sync vs client-go (≤ 1×)', 'same, vs client-go protobuf', 'events/s vs parse limit (≥ 1×)', 'events/s vs client-node', 'parse limit vs client-node'];
  const ratioRows = ratios.map((r) => {
    const [rss, rssPb, heap, sync, syncPb, ev] = [r.rssVsClientGo, r.rssVsClientGoPb, r.heapVsParse, r.syncVsClientGo, r.syncVsClientGoPb, r.evVsParse].map(median) as [number, number, number, number, number, number];
    return [r.config.workload, si(r.config.objects, 0), r.ours, check(rss, rss <= 0.6), check(rssPb, rssPb <= 0.6), check(heap, heap <= 0.5), check(sync, sync <= 1), check(syncPb, syncPb <= 1), check(ev, ev >= 1), ratio(median(r.evVsClientNode)), ratio(median(r.ceiling))];
  });
  const importHeader = ['module', 'import time', 'RSS added'];
  const importRows = imports.map((i) => [i.label, ms(i.ms), mb(i.rssBytes)]);

  // Wall times mean little on a machine busy with other work: say how busy it was.
  const machine = `${cpus().length} CPUs${pinned ? ' (server on CPU 0, contender on CPU 1)' : ''}, load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`;
  const described = [...new Set(plan.map((c) => c.workload))].map((w) => (w === 'pods' ? `Pods of ~5.5 KB (${si(plan.find((c) => c.workload === w)!.events, 0)} watch events)` : `ConfigMaps of ~1 KB (${si(plan.find((c) => c.workload === w)!.events, 0)} watch events)`));
  console.log(`\nInformer: ${described.join(' and ')}; 70% MODIFIED, 15% ADDED, 15% DELETED over loopback HTTP; median of ${reps}; ${machine}\n`);
  console.log(textTable(header, table));
  console.log(`\ncontroller-lab ran ${cliFlags.length > 0 ? `with the V8 flags the controller-lab command runs with (${cliFlags.join(' ')})` : `on Node's default V8 flags (--without-cli-flags)`}; every other Node contender on Node's defaults.`);
  console.log(`\nRatios (ours ÷ peer, median of per-run ratios; controller-lab-lean drops managedFields as the extension does;`);
  console.log(`last column: the parse limit's events/s ÷ client-node's, the most any informer that parses every event can reach)\n`);
  console.log(textTable(ratioHeader, ratioRows));
  console.log(`\nStart-up: import cost in a fresh process (median of 5)\n`);
  console.log(textTable(importHeader, importRows));
  if (!values['without-whole-process']) wholeProcess(reps);
  console.log(`\n--- markdown (README) ---\n`);
  console.log(markdownTable(header, table));
  console.log('');
  console.log(markdownTable(ratioHeader, ratioRows));
  console.log('');
  console.log(markdownTable(importHeader, importRows));
  if (values.prof) console.log(`\nCPU profiles: ${profDir}`);
}

/**
 * The in-process figures above leave out what a user waits for: start-up, discovery, printing, exit.
 * The whole `controller-lab watch` process against the parse limit's, from bench/watchCli.bench.ts.
 */
function wholeProcess(reps: number): void {
  const args = [path.join(ROOT, 'bench/watchCli.bench.ts'), '--contenders', 'parse-limit,controller-lab,controller-lab-quiet', '--reps', String(reps), ...(values.quick ? ['--quick'] : [])];
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  const table = (r.stdout ?? '').split('\n--- markdown ---')[0]!.trim();
  console.log(`\n${table || `whole-process benchmark failed (${r.status ?? r.signal})`}`);
}

/**
 * This benchmark bundled by esbuild, as the extension and the CLI ship: the Node contenders run from
 * it, because loading .ts sources through type stripping costs tens of MB of RSS no user pays.
 * Written under .bench-output/ so that @kubernetes/client-node (left out) resolves from node_modules.
 */
async function bundleSelf(): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = path.join(ROOT, '.bench-output', 'informer.bench.mjs');
  await build({
    entryPoints: [SELF],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: ['@kubernetes/client-node', 'esbuild'],
    // CommonJS dependencies bundled into an ES module still call require().
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return outfile;
}

// ---- import cost ------------------------------------------------------------------------------

interface ImportCost {
  label: string;
  ms: number;
  rssBytes: number;
}

async function importCosts(work: string): Promise<ImportCost[]> {
  // The kube module as it ships (bundled by esbuild into the CLI / extension), and as source.
  const { build } = await import('esbuild');
  const bundled = path.join(work, 'kube.cjs');
  await build({ entryPoints: [path.join(ROOT, 'src/kube/index.ts')], outfile: bundled, bundle: true, platform: 'node', format: 'cjs', target: 'node22', logLevel: 'warning' });
  const targets: [string, string][] = [
    ['(empty: node itself)', ''],
    ['src/kube, bundled (as shipped)', bundled],
    ['src/kube, .ts source (type stripping)', path.join(ROOT, 'src/kube/index.ts')],
    ['@kubernetes/client-node (whole package)', '@kubernetes/client-node'],
  ];
  const out: ImportCost[] = [];
  for (const [label, target] of targets) {
    const runs: { ms: number; rssBytes: number }[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await runChild<{ ms: number; rssBytes: number }>(SELF, ['--import-child', target || '-']);
      if (r.result) runs.push(r.result);
    }
    out.push({ label, ms: median(runs.map((r) => r.ms)), rssBytes: median(runs.map((r) => r.rssBytes)) });
  }
  return out;
}

async function importChild(target: string): Promise<void> {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  if (target !== '-') await import(target);
  const elapsed = performance.now() - t0;
  console.log(JSON.stringify({ ms: elapsed, rssBytes: process.memoryUsage().rss - rss0 }));
}

// ---- one contender in its own process --------------------------------------------------------

async function contenderChild(contender: NodeContender): Promise<void> {
  const events = Number(values.events);
  const kubeconfig = values.kubeconfig!;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const start = await prepare(contender, kubeconfig);
  gc();
  const heap0 = dataHeapUsed();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let tSync = 0;
  let cpuSync = cpu0;
  const tEnd = await new Promise<number>((resolve, reject) => {
    let seen = 0;
    start({
      synced: () => {
        tSync = performance.now();
        cpuSync = process.cpuUsage();
      },
      watchEvent: () => {
        if (++seen === events) resolve(performance.now());
      },
      fail: reject,
    });
  });
  const cpu = process.cpuUsage(cpu0);
  const watchCpu = process.cpuUsage(cpuSync);
  gc();
  const cacheHeapBytes = dataHeapUsed() - heap0;
  const m: Measurement = {
    syncMs: tSync - t0,
    watchMs: tEnd - tSync,
    eventsPerSec: events / ((tEnd - tSync) / 1000),
    cpuMs: (cpu.user + cpu.system) / 1000,
    watchCpuUs: (watchCpu.user + watchCpu.system) / events,
    peakRssBytes: peakRss(),
    cacheHeapBytes,
    cached: cachedCount(),
  };
  console.log(JSON.stringify(m));
  process.exit(0);
}

/**
 * The process's resident high-water mark since it started (VmHWM). Not getrusage's maxRSS: Linux
 * keeps that across exec, so a child spawned from this benchmark's big orchestrator would report
 * the orchestrator's size at fork time.
 */
function peakRss(): number {
  const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return hwm ? Number(hwm[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

/**
 * V8 heap in use for data: every space but those holding JIT code and bytecode, which grow with the
 * code a contender ran (hundreds of KB) rather than with what it caches.
 */
function dataHeapUsed(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) if (!/code|trusted/.test(space.space_name)) used += space.space_used_size;
  return used;
}

function contenderModules(): Promise<typeof ContenderModules> {
  return import('./lib/contenderModules.ts');
}

interface Hooks {
  synced(): void;
  watchEvent(): void;
  fail(err: unknown): void;
}

let cachedCount: () => number = () => 0;

/** Loads the contender's code (outside the measurement) and returns its start function. */
async function prepare(contender: NodeContender, kubeconfig: string): Promise<(hooks: Hooks) => void> {
  const workload = (values.workload ?? 'configmaps') as Workload;
  const listPath = listPathOf(workload);
  const kind = workload === 'pods' ? 'Pod' : 'ConfigMap';
  const resource = { group: '', version: 'v1', resource: workload, kind, namespaced: true, shortNames: [], singularName: kind.toLowerCase(), verbs: ['list', 'watch'] };

  if (contender === 'controller-lab' || contender === 'controller-lab-lean') {
    const { loadCluster, createSharedInformer, dropManagedFields } = await contenderModules();
    return (hooks) => {
      const cluster = loadCluster({ kubeconfig });
      const listerWatcher = cluster.listerWatcher(resource, { namespace: BENCH_NAMESPACE });
      const informer = createSharedInformer({ name: 'bench', listerWatcher, ...(contender === 'controller-lab-lean' ? { transform: dropManagedFields } : {}) });
      cachedCount = () => informer.indexer.list().length;
      informer.addEventHandler({
        onAdd: (_o, initial) => void (initial ? undefined : hooks.watchEvent()),
        onUpdate: () => hooks.watchEvent(),
        onDelete: () => hooks.watchEvent(),
      });
      informer.onError((err) => hooks.fail(err));
      void informer.waitForSync().then(() => hooks.synced());
      informer.run();
    };
  }

  if (contender === 'client-node') {
    const k8s = await import('@kubernetes/client-node');
    return (hooks) => {
      const kc = new k8s.KubeConfig();
      kc.loadFromFile(kubeconfig);
      const api = kc.makeApiClient(k8s.CoreV1Api);
      const list = workload === 'pods' ? () => api.listNamespacedPod({ namespace: BENCH_NAMESPACE }) : () => api.listNamespacedConfigMap({ namespace: BENCH_NAMESPACE });
      const informer = k8s.makeInformer<KubernetesObject>(kc, listPath, list as () => Promise<KubernetesListObject<KubernetesObject>>);
      cachedCount = () => informer.list(BENCH_NAMESPACE).length;
      let synced = false;
      let initial = 0;
      const objects = Number(values.objects);
      informer.on('add', () => {
        if (synced) return hooks.watchEvent();
        if (++initial === objects) {
          synced = true;
          hooks.synced();
        }
      });
      informer.on('update', () => hooks.watchEvent());
      informer.on('delete', () => hooks.watchEvent());
      informer.on('error', (err) => hooks.fail(err));
      void informer.start();
    };
  }

  // The parse limit: our HTTP client path, a line splitter, JSON.parse and a Map — nothing else.
  const { loadCluster, LineSplitter } = await contenderModules();
  return (hooks) => {
    const cluster = loadCluster({ kubeconfig });
    const cache = new Map<string, unknown>();
    cachedCount = () => cache.size;
    type Item = { metadata: { namespace: string; name: string } };
    void (async () => {
      const list = await cluster.request<{ metadata: { resourceVersion: string }; items: Item[] }>(listPath);
      for (const item of list.items) cache.set(`${item.metadata.namespace}/${item.metadata.name}`, item);
      hooks.synced();
      const res = await cluster.stream(listPath, { query: { watch: 'true', resourceVersion: list.metadata.resourceVersion, allowWatchBookmarks: 'true' } });
      const splitter = new LineSplitter((line) => {
        const ev = JSON.parse(line) as { type: string; object: Item };
        const key = `${ev.object.metadata.namespace}/${ev.object.metadata.name}`;
        if (ev.type === 'DELETED') cache.delete(key);
        else cache.set(key, ev.object);
        hooks.watchEvent();
      });
      res.body.setEncoding('utf8');
      res.body.on('data', (chunk: string) => splitter.push(chunk));
    })().catch(hooks.fail);
  };
}

// ---- the informer core alone (no HTTP) -------------------------------------------------------

interface CoreResult {
  usPerEvent: number;
  cpuUsPerEvent: number;
  /** Heap still live after the stream and a full GC (the cache and whatever else is kept). */
  heapAfterBytes: number;
  /** With --alloc: bytes allocated per event (JSON.parse included) and where. */
  allocBytesPerEvent?: number;
  allocSites?: [site: string, bytesPerEvent: number][];
}

async function orchestrateCore(): Promise<void> {
  const objects = Number(values.objects ?? 10_000);
  const events = Number(values.events ?? 100_000);
  const reps = Number(values.reps ?? 5);
  const kinds = ['map', 'informer'] as const;
  const results = new Map<string, CoreResult[]>(kinds.map((k) => [k, []]));
  const overhead: number[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const run = new Map<string, CoreResult>();
    for (const kind of rep % 2 === 0 ? kinds : [...kinds].reverse()) {
      const profDir = path.join(ROOT, '.bench-output', 'profiles');
      const nodeFlags = ['--expose-gc', ...(values.prof ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=core-${kind}-${rep}.cpuprofile`] : [])];
      const r = await runChild<CoreResult>(SELF, ['--core-child', kind, '--objects', String(objects), '--events', String(events), ...(values.alloc ? ['--alloc'] : [])], { nodeFlags });
      if (!r.result) {
        console.error(`  ${kind}: FAILED ${r.error}`);
        continue;
      }
      run.set(kind, r.result);
      results.get(kind)!.push(r.result);
      console.error(`  ${kind.padEnd(9)} ${r.result.usPerEvent.toFixed(2)} µs/event wall, ${r.result.cpuUsPerEvent.toFixed(2)} µs/event CPU, heap after ${mb(r.result.heapAfterBytes)}`);
    }
    const m = run.get('map');
    const i = run.get('informer');
    if (m && i) overhead.push(i.cpuUsPerEvent / m.cpuUsPerEvent);
  }
  const rows = kinds.map((k) => [k, `${median(results.get(k)!.map((r) => r.usPerEvent)).toFixed(2)} µs`, `${median(results.get(k)!.map((r) => r.cpuUsPerEvent)).toFixed(2)} µs`, mb(median(results.get(k)!.map((r) => r.heapAfterBytes)))]);
  console.log(`\nInformer core, in process: ${si(events, 0)} watch events (JSON.parse included) over ${si(objects, 0)} objects, 64 events per turn of the event loop; median of ${reps}\n`);
  console.log(textTable(['pipeline', 'wall / event', 'CPU / event', 'heap after GC'], rows));
  console.log(`\ninformer ÷ map, CPU per event (median of per-run ratios): ${ratio(median(overhead))} — the HTTP benchmark's 0.9× target needs ≤ 1.11×`);
  if (values.alloc) {
    for (const k of kinds) {
      const last = results.get(k)!.at(-1);
      if (!last?.allocSites) continue;
      console.log(`\n${k}: ${last.allocBytesPerEvent!.toFixed(0)} bytes allocated per event (JSON.parse included); top sites:`);
      for (const [site, bytes] of last.allocSites) console.log(`  ${bytes.toFixed(0).padStart(6)} B  ${site}`);
    }
  }
}

/** Samples every allocation (also those a GC already collected) while `run` runs. */
async function sampleAllocations(run: () => Promise<void>, perUnit: number): Promise<{ total: number; sites: [string, number][] }> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true } as never);
  await run();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  const bySite = new Map<string, number>();
  let total = 0;
  type Node = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] };
  const walk = (node: Node): void => {
    const f = node.callFrame;
    const site = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const c of node.children) walk(c);
  };
  walk(profile.head as unknown as Node);
  const sites = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([site, bytes]): [string, number] => [site, bytes / perUnit]);
  return { total: total / perUnit, sites };
}

async function coreChild(kind: string): Promise<void> {
  const objects = Number(values.objects);
  const events = Number(values.events);
  const stream = renderStream({ objects, events });
  const listText = stream.list.toString();
  const lines = stream.watch.toString().split('\n').filter((l) => l.length > 0);
  const gc = (globalThis as { gc?: () => void }).gc!;
  type Ev = { type: string; object: { metadata: { namespace: string; name: string } } };
  const { createSharedInformer } = await import('../src/informer/index.ts');
  let sink: ((ev: Ev) => void) | undefined;
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => (finished = resolve));
  let seen = 0;
  const count = (): void => {
    if (++seen === events) finished();
  };
  if (kind === 'map') {
    const cache = new Map<string, unknown>();
    const list = JSON.parse(listText) as { items: Ev['object'][] };
    for (const item of list.items) cache.set(`${item.metadata.namespace}/${item.metadata.name}`, item);
    sink = (ev) => {
      const key = `${ev.object.metadata.namespace}/${ev.object.metadata.name}`;
      if (ev.type === 'DELETED') cache.delete(key);
      else cache.set(key, ev.object);
      count();
    };
  } else {
    const informer = createSharedInformer({
      name: 'core',
      listerWatcher: {
        list: async () => JSON.parse(listText),
        watch: async (_options, s) => {
          sink = (ev) => s.event(ev as never);
          return { stop() {} };
        },
      },
    });
    informer.addEventHandler({ onAdd: (_o, initial) => void (initial ? undefined : count()), onUpdate: count, onDelete: count });
    informer.run();
    await informer.waitForSync();
    while (!sink) await new Promise((r) => setImmediate(r));
  }
  gc();
  const stream_ = async (): Promise<void> => {
    // 64 events per macrotask, as a socket read of 64 KB delivers them.
    for (let i = 0; i < lines.length; i += 64) {
      const end = Math.min(i + 64, lines.length);
      for (let j = i; j < end; j++) sink!(JSON.parse(lines[j]!) as Ev);
      await new Promise((r) => setImmediate(r));
    }
    await done;
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const alloc = values.alloc ? await sampleAllocations(stream_, events) : (await stream_(), undefined);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  gc();
  const heapAfterBytes = process.memoryUsage().heapUsed;
  const result: CoreResult = { usPerEvent: (wall * 1000) / events, cpuUsPerEvent: (cpu.user + cpu.system) / events, heapAfterBytes };
  if (alloc) {
    result.allocBytesPerEvent = alloc.total;
    result.allocSites = alloc.sites;
  }
  console.log(JSON.stringify(result));
  process.exit(0);
}

// Dispatch last: every declaration above is initialised by now.
if (values['import-child']) await importChild(values['import-child']);
else if (values['core-child']) await coreChild(values['core-child']);
else if (values.core) await orchestrateCore();
else if (values.child) await contenderChild(values.child as NodeContender);
else await orchestrate();

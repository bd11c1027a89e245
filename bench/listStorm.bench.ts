// `node bench/listStorm.bench.ts` (`npm run bench:storm`): 500 clients LIST 10k ConfigMaps (~1 KB
// each) at once over HTTPS for 12 s, half on a new connection per LIST (a TLS handshake each, as
// kubectl and many scripts do), half on keep-alive connections; each honours 429 + Retry-After as
// client-go does. Meanwhile a probe on a connection of its own GETs /healthz and /readyz every
// 20 ms. Printed: the probe's latencies (worst case, p99) during the storm and in the 30 s after,
// the server's own worst event-loop stall, peak RSS, and RSS before, right after and 30 s after
// the clients left. Every role runs in a process of its own; the whole run takes under a minute.
//   --clients N  --objects N  --storm-ms N  --after-ms N   sizes (defaults 500, 10000, 12000, 30000)
//   --src DIR    serve another checkout's src/ (to measure before a change)
//   --renice N   run the server and the probe at niceness N (negative needs root): on a machine
//                shared with other jobs, approximates one where they get a core of their own
//   --second-storm  then storms again (longer than a minute): does the peak grow or plateau?
//   --fresh N    of every 10 clients, how many open a new connection per LIST (default 5)
//   --without-cli-flags  run the server on Node's default V8 flags (as the extension host's sim)
//                instead of those the controller-lab command runs with (as `controller-lab sim`)
//   SIM_STORM_FLAGS='--cpu-prof --cpu-prof-dir DIR'  more Node flags for the server (to profile it)
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request, type RequestOptions } from 'node:https';
import { loadavg, setPriority } from 'node:os';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CLI_NODE_FLAGS } from '../scripts/cliBuild.mjs';

const SELF = fileURLToPath(import.meta.url);
const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const SRC = resolve(arg('--src', resolve(SELF, '..', '..', 'src')));
const CLIENTS = Number(arg('--clients', '500'));
const OBJECTS = Number(arg('--objects', '10000'));
const STORM_MS = Number(arg('--storm-ms', '12000'));
const AFTER_MS = Number(arg('--after-ms', '30000'));
const FRESH = Number(arg('--fresh', '5'));
const LIST_PATH = '/api/v1/namespaces/default/configmaps';

interface Endpoint {
  url: string;
  token: string;
  ca: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- server role: the sim, seeded, reporting its worst event-loop stall on request ---------------

async function serve(): Promise<void> {
  const { createSimCluster } = await import(`${SRC}/sim/simCluster.ts`);
  const { startSimServer } = await import(`${SRC}/sim/server/simServer.ts`);
  const cluster = createSimCluster({ defaultNamespaces: true });
  const filler = 'x'.repeat(900);
  const gvr = { group: '', version: 'v1', resource: 'configmaps' };
  for (let i = 0; i < OBJECTS; i++) cluster.create(gvr, 'default', { metadata: { name: `storm-${i}`, labels: { app: 'storm' } }, data: { filler } });
  const server = await startSimServer(cluster, { onInternalError: () => {} });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  // The longest the main thread ran between two 5 ms ticks, in its own CPU time: the stall this
  // process causes itself, whatever else the machine runs (wall-clock stalls also count preemption).
  let cpuStallMs = 0;
  let lastCpu = process.threadCpuUsage();
  setInterval(() => {
    const cpu = process.threadCpuUsage();
    cpuStallMs = Math.max(cpuStallMs, (cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000);
    lastCpu = cpu;
  }, 5).unref();
  const reply = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
  reply({ url: server.url, token: server.token, ca: server.caPem });
  for await (const line of createInterface({ input: process.stdin })) {
    const cmd = line.trim();
    if (cmd === 'reset') {
      loop.reset();
      cpuStallMs = 0;
      reply({ ok: true });
    } else if (cmd === 'stats') {
      const m = process.memoryUsage();
      reply({ loopMaxMs: Math.round(loop.max / 1e6), cpuStallMs: Math.round(cpuStallMs), heapMb: Math.round(m.heapUsed / 1048576), externalMb: Math.round(m.external / 1048576), arrayBuffersMb: Math.round(m.arrayBuffers / 1048576) });
    } else if (cmd === 'exit') {
      await server.stop();
      process.exit(0);
    }
  }
}

// ---- probe role: /healthz and /readyz every 20 ms on one keep-alive connection -------------------

async function probe(e: Endpoint): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples: [number, number, number][] = []; // [ms since start, latency ms, status]
  let running = true;
  process.stdin.resume().on('end', () => (running = false));
  const t0 = performance.now();
  for (let i = 0; running; i++) {
    const started = performance.now();
    const status = await new Promise<number>((done) => {
      const req = request(`${e.url}${i % 2 === 0 ? '/healthz' : '/readyz'}`, { headers: { Authorization: `Bearer ${e.token}` }, agent, ca: e.ca, timeout: 30_000 }, (res) => res.resume().on('end', () => done(res.statusCode ?? 0)));
      req.on('timeout', () => req.destroy());
      req.on('error', () => done(-1));
      req.end();
    });
    samples.push([Math.round(started - t0), performance.now() - started, status]);
    await sleep(20);
  }
  process.stdout.write(JSON.stringify(samples) + '\n');
  process.exit(0);
}

// ---- clients role: the storm ---------------------------------------------------------------------

interface ClientFigures {
  ok: number;
  tooMany: number;
  failed: number;
  listMs: number[];
}

async function clients(e: Endpoint, count: number, stormMs: number): Promise<void> {
  const figures: ClientFigures = { ok: 0, tooMany: 0, failed: 0, listMs: [] };
  const inFlight = new Set<{ destroy(): void }>();
  const end = performance.now() + stormMs;
  const list = (options: RequestOptions): Promise<{ status: number; retryAfter: number }> => new Promise((done) => {
    const started = performance.now();
    const req = request(`${e.url}${LIST_PATH}`, { ...options, headers: { Authorization: `Bearer ${e.token}`, Accept: 'application/json', 'User-Agent': 'list-storm' }, ca: e.ca }, (res) => {
      res.on('data', () => {});
      res.on('end', () => {
        inFlight.delete(req);
        if (res.statusCode === 200) figures.listMs.push(performance.now() - started);
        done({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 1) });
      });
      res.on('error', () => done({ status: -1, retryAfter: 1 }));
    });
    inFlight.add(req);
    req.on('error', () => {
      inFlight.delete(req);
      done({ status: -1, retryAfter: 1 });
    });
    req.end();
  });
  const client = async (i: number) => {
    // Some clients open a new connection (and TLS handshake) per LIST; the others keep theirs.
    const options: RequestOptions = i % 10 < FRESH ? { agent: false } : { agent: new Agent({ keepAlive: true, maxSockets: 1 }) };
    while (performance.now() < end) {
      const { status, retryAfter } = await list(options);
      if (status === 200) figures.ok++;
      else if (status === 429) figures.tooMany++;
      else if (performance.now() < end) figures.failed++;
      if (status !== 200) await sleep(Math.min(retryAfter * 1000, Math.max(0, end - performance.now())));
    }
  };
  const all = Promise.all(Array.from({ length: count }, (_, i) => client(i)));
  await sleep(stormMs);
  // The clients leave: whatever is in flight is abandoned mid-answer.
  for (const req of inFlight) req.destroy();
  await all;
  process.stdout.write(JSON.stringify(figures) + '\n');
  process.exit(0);
}

// ---- the run -------------------------------------------------------------------------------------

function lastJsonLine<T>(child: ChildProcess): Promise<T> {
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  return new Promise((done, fail) => child.once('exit', (code) => {
    try {
      done(JSON.parse(out.trim().split('\n').at(-1)!) as T);
    } catch {
      fail(new Error(`child exited ${code} without figures`));
    }
  }));
}

function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(m?.[1] ?? 0) / 1024);
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? -1 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

async function main(): Promise<void> {
  const started = performance.now();
  const cliFlags = process.argv.includes('--without-cli-flags') ? [] : CLI_NODE_FLAGS;
  const flags = [...cliFlags, ...(process.env['SIM_STORM_FLAGS'] ?? '').split(' ').filter(Boolean)];
  const server = spawn(process.execPath, [...flags, SELF, '--serve', '--src', SRC, '--objects', String(OBJECTS)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: server.stdout! })[Symbol.asyncIterator]();
  // The server's answers, one JSON line each; lines of Node's tracing flags (--trace-gc) are passed on.
  const answer = async () => {
    for (;;) {
      const line = (await lines.next()).value as string;
      if (line.startsWith('{')) return JSON.parse(line) as Record<string, number>;
      process.stderr.write(line + '\n');
    }
  };
  const ask = async (cmd: string) => {
    server.stdin!.write(cmd + '\n');
    return answer();
  };
  const endpoint = (await answer()) as unknown as Endpoint;
  const pid = server.pid!;
  const renice = process.argv.includes('--renice') ? Number(arg('--renice', '0')) : undefined;
  if (renice !== undefined) setPriority(pid, renice);
  await sleep(1000); // let start-up settle
  const rssBefore = statusMb(pid, 'VmRSS');
  const before = await ask('stats');
  writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
  await ask('reset');
  const load = loadavg()[0]!.toFixed(1);

  const spec = JSON.stringify(endpoint);
  const prober = spawn(process.execPath, [SELF, '--probe', spec], { stdio: ['pipe', 'pipe', 'inherit'] });
  const probed = lastJsonLine<[number, number, number][]>(prober);
  if (renice !== undefined) setPriority(prober.pid!, renice);
  await sleep(500);
  const t0 = performance.now();
  const stormers = spawn(process.execPath, [SELF, '--stormers', spec, '--clients-count', String(CLIENTS), '--storm-ms', String(STORM_MS), '--fresh', String(FRESH)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const storm = await lastJsonLine<ClientFigures>(stormers);
  const leftAt = performance.now() - t0;
  const during = await ask('stats');
  const peak = statusMb(pid, 'VmHWM');
  const rssLeft = statusMb(pid, 'VmRSS');
  const rssTimeline: number[] = [];
  for (let waited = 0; waited < AFTER_MS; waited += 5000) {
    await sleep(Math.min(5000, AFTER_MS - waited));
    rssTimeline.push(statusMb(pid, 'VmRSS'));
  }
  const rssAfter = statusMb(pid, 'VmRSS');
  const after = await ask('stats');
  let secondPeak: number | undefined;
  if (process.argv.includes('--second-storm')) {
    // Whether a second storm needs more memory than the first (growth) or reuses it (a plateau).
    await lastJsonLine<ClientFigures>(spawn(process.execPath, [SELF, '--stormers', spec, '--clients-count', String(CLIENTS), '--storm-ms', String(STORM_MS), '--fresh', String(FRESH)], { stdio: ['ignore', 'pipe', 'inherit'] }));
    secondPeak = statusMb(pid, 'VmHWM');
  }
  prober.stdin!.end();
  const samples = await probed;
  await ask('exit').catch(() => undefined);

  // The probe started 500 ms before the storm.
  const inStorm = samples.filter(([t]) => t >= 500 && t - 500 <= leftAt).map(([, ms]) => ms).sort((a, b) => a - b);
  const afterStorm = samples.filter(([t]) => t - 500 > leftAt).map(([, ms]) => ms).sort((a, b) => a - b);
  const failedProbes = samples.filter(([, , status]) => status !== 200).length;
  const listMs = storm.listMs.sort((a, b) => a - b);
  const r = (n: number) => Math.round(n);
  const figures = {
    clients: CLIENTS, objects: OBJECTS, stormS: STORM_MS / 1000, loadAvgBefore: Number(load), loadAvgAfter: Number(loadavg()[0]!.toFixed(1)),
    listsOk: storm.ok, answered429: storm.tooMany, listsFailed: storm.failed, listP50Ms: r(percentile(listMs, 0.5)), listMaxMs: r(listMs.at(-1) ?? -1),
    probes: samples.length, probesFailed: failedProbes,
    healthP50Ms: r(percentile(inStorm, 0.5)), healthP99Ms: r(percentile(inStorm, 0.99)), healthMaxMs: r(inStorm.at(-1) ?? -1),
    healthAfterMaxMs: r(afterStorm.at(-1) ?? -1), serverLoopMaxMs: during['loopMaxMs'], serverLoopMaxAfterMs: after['loopMaxMs'], serverCpuStallMs: after['cpuStallMs'],
    rssBeforeMb: rssBefore, peakRssMb: peak, rssWhenClientsLeftMb: rssLeft, rssAfterMb: rssAfter, afterS: AFTER_MS / 1000,
    rssEvery5sAfterMb: rssTimeline, peakRssWithSecondStormMb: secondPeak, heapBeforeMb: before['heapMb'], heapAfterMb: after['heapMb'], externalBeforeMb: before['externalMb'], externalAfterMb: after['externalMb'],
  };
  console.log(`list storm, ${CLIENTS} clients (${FRESH * 10}% on a new connection per LIST) × ${OBJECTS} ConfigMaps over HTTPS for ${STORM_MS / 1000} s (load average ${load}${renice === undefined ? '' : `; server and probe at niceness ${renice}`}; server's Node flags: ${flags.join(' ') || 'none'}):`);
  console.log(`  LISTs: ${storm.ok} answered 200 (p50 ${figures.listP50Ms} ms, worst ${figures.listMaxMs} ms), ${storm.tooMany} answered 429 + Retry-After, ${storm.failed} failed`);
  console.log(`  /healthz + /readyz every 20 ms: ${samples.length} probes, ${failedProbes} not 200; during the storm p50 ${figures.healthP50Ms} ms, p99 ${figures.healthP99Ms} ms, worst ${figures.healthMaxMs} ms; after it worst ${figures.healthAfterMaxMs} ms`);
  console.log(`  server event loop blocked at worst: ${figures.serverLoopMaxMs} ms during, ${figures.serverLoopMaxAfterMs} ms overall; of its own CPU (preemption aside) ${figures.serverCpuStallMs} ms`);
  console.log(`  RSS: ${rssBefore} MB before, peak ${peak} MB, ${rssLeft} MB as the clients left, ${rssAfter} MB ${AFTER_MS / 1000} s later (heap ${figures.heapBeforeMb} → ${figures.heapAfterMb} MB, external ${figures.externalBeforeMb} → ${figures.externalAfterMb} MB)`);
  if (secondPeak !== undefined) console.log(`  a second storm after that: peak RSS ${secondPeak} MB`);
  console.log(`  (the run took ${Math.round((performance.now() - started) / 1000)} s)`);
  console.log(JSON.stringify(figures));
}

if (process.argv.includes('--serve')) await serve();
else if (process.argv.includes('--probe')) await probe(JSON.parse(arg('--probe', '{}')) as Endpoint);
else if (process.argv.includes('--stormers')) await clients(JSON.parse(arg('--stormers', '{}')) as Endpoint, Number(arg('--clients-count', '500')), STORM_MS);
else await main();

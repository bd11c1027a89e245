// `node bench/simLoad.bench.ts`: the simulated cluster under adversarial load, in its own process
// over HTTPS (as `controller-lab sim` serves), measured from outside: peak RSS (VmHWM), /healthz
// latency during a LIST storm, what happens to watchers that never read, to a flood of
// unauthenticated callers and to deeply nested JSON. `--full` runs the sizes of the original
// reports (slower); `--src DIR` serves another checkout's src/ (e.g. to measure before a change).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const FULL = process.argv.includes('--full');
const SRC = resolve(arg('--src') ?? resolve(SELF, '..', '..', 'src'));

// ---- server role ---------------------------------------------------------------------------

function procStatusMb(field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(field)) ?? '';
  return Math.round(Number(/(\d+)/.exec(line)?.[1] ?? 0) / 1024);
}

async function serve(): Promise<void> {
  const { createSimCluster } = await import(`${SRC}/sim/simCluster.ts`);
  const { startSimServer } = await import(`${SRC}/sim/server/simServer.ts`);
  const cluster = createSimCluster({ defaultNamespaces: true });
  const server = await startSimServer(cluster, { onInternalError: () => {} });
  const gvr = { group: '', version: 'v1', resource: 'configmaps' };
  // How long the event loop was blocked at worst: what a health check waits for, machine load aside.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const reply = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
  reply({ url: server.url, token: server.token, ca: server.caPem, port: server.port, pid: process.pid });
  for await (const line of createInterface({ input: process.stdin })) {
    const cmd = JSON.parse(line) as { cmd: string; count?: number; bytes?: number; prefix?: string };
    const filler = 'x'.repeat(cmd.bytes ?? 0);
    if (cmd.cmd === 'seed' || cmd.cmd === 'burst') {
      for (let i = 0; i < cmd.count!; i++) {
        cluster.create(gvr, 'default', { metadata: { name: `${cmd.prefix}-${i}` }, data: { filler } });
        // Writes arrive over time, as from clients: let watchers deliver between bursts.
        if (cmd.cmd === 'burst' && i % 100 === 99) await new Promise((r) => setImmediate(r));
      }
      reply({ rv: cluster.resourceVersion });
    } else if (cmd.cmd === 'stats') {
      const { user, system } = process.cpuUsage();
      const m = process.memoryUsage();
      const mb = (n: number) => Math.round(n / 1048576);
      // What the sockets of this process hold unsent (Node's own buffers, not the kernel's).
      const handles = (process as unknown as { _getActiveHandles(): { writableLength?: number }[] })._getActiveHandles();
      const unsentMb = mb(handles.reduce((n, h) => n + (typeof h.writableLength === 'number' ? h.writableLength : 0), 0));
      reply({ loopBlockedMaxMs: Math.round(loopDelay.max / 1e6), unsentMb, rssMb: procStatusMb('VmRSS'), peakMb: procStatusMb('VmHWM'), heapMb: mb(m.heapUsed), externalMb: mb(m.external), watchers: cluster.openWatchCount(), cpuMs: Math.round((user + system) / 1000) });
    } else if (cmd.cmd === 'resetPeak') {
      writeFileSync('/proc/self/clear_refs', '5');
      loopDelay.reset();
      reply({ ok: true });
    } else if (cmd.cmd === 'exit') {
      process.exit(0);
    }
  }
}

// ---- client role ---------------------------------------------------------------------------

interface Server {
  url: string;
  token: string;
  ca: string;
  port: number;
  child: ChildProcess;
  send(cmd: object): Promise<Record<string, number>>;
  alive(): boolean;
}

async function startServer(): Promise<Server> {
  const child = spawn(process.execPath, [...(process.env['SIM_LOAD_PROF'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['SIM_LOAD_PROF']] : []), SELF, '--serve', '--src', SRC], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse(((await lines.next()).value as string | undefined) ?? 'null');
  const hello = await next();
  let exited = false;
  child.once('exit', () => (exited = true));
  return { ...hello, child, alive: () => !exited, send: async (cmd) => (child.stdin!.write(JSON.stringify(cmd) + '\n'), next()) };
}

interface Answer {
  status: number;
  ms: number;
  body: string;
}

function call(s: Server, agent: Agent, method: string, path: string, opts: { body?: string; token?: string; userAgent?: string; keep?: boolean; signal?: AbortSignal } = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((done) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${opts.token ?? s.token}`, Accept: 'application/json', 'User-Agent': opts.userAgent ?? 'sim-load-bench' };
    if (opts.body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(opts.body)) });
    const req = request(`${s.url}${path}`, { method, headers, agent, ca: s.ca, signal: opts.signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => opts.keep && chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => done({ status: -1, ms: performance.now() - started, body: '' }));
    });
    req.on('error', () => done({ status: -1, ms: performance.now() - started, body: '' }));
    req.end(opts.body);
  });
}

/**
 * `count` watches whose client stops reading: a child process opens them, then is stopped (SIGSTOP),
 * so its sockets fill as a hung client's would. `leave()` kills it (the clients go away).
 */
async function stalledWatches(s: Server, path: string, count: number): Promise<{ leave: () => void }> {
  if (count === 0) return { leave: () => {} };
  const child = spawn(process.execPath, [SELF, '--stall', JSON.stringify({ url: `${s.url}${path}`, token: s.token, ca: s.ca, count })], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((ready) => child.stdout!.once('data', () => ready()));
  child.kill('SIGSTOP');
  return { leave: () => child.kill('SIGKILL') };
}

async function stall(spec: { url: string; token: string; ca: string; count: number }): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.count });
  let open = 0;
  for (let i = 0; i < spec.count; i++) {
    request(spec.url, { headers: { Authorization: `Bearer ${spec.token}` }, agent, ca: spec.ca }, () => {
      if (++open === spec.count) process.stdout.write('ready\n');
    }).end();
  }
  await new Promise(() => {});
}

/** A watch that reads and counts event lines. */
function readingWatch(s: Server, agent: Agent, path: string): { lines: () => number; stop: () => void } {
  let lines = 0;
  const req = request(`${s.url}${path}`, { headers: { Authorization: `Bearer ${s.token}` }, agent, ca: s.ca }, (res) => {
    res.on('data', (c: Buffer) => {
      for (const b of c) if (b === 10) lines++;
    });
  });
  req.on('error', () => {});
  req.end();
  return { lines: () => lines, stop: () => req.destroy() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const results: Record<string, unknown>[] = [];
const report = (scenario: string, figures: Record<string, unknown>) => {
  results.push({ scenario, ...figures });
  console.log(`${scenario}: ${JSON.stringify(figures)}`);
};

async function watchersThatNeverRead(s: Server, watchers: number, writes: number, bytes: number, label: string, prefix: string): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const base = await s.send({ cmd: 'stats' });
  await s.send({ cmd: 'resetPeak' });
  const path = `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${(await s.send({ cmd: 'seed', count: 0 })).rv}`;
  const reader = readingWatch(s, agent, path);
  const stalled = await stalledWatches(s, path, watchers);
  const started = performance.now();
  await s.send({ cmd: 'burst', count: writes, bytes, prefix });
  for (let t = 0; t < 100 && reader.lines() < writes; t++) await sleep(100);
  const during = await s.send({ cmd: 'stats' });
  stalled.leave();
  reader.stop();
  await sleep(1500);
  const after = await s.send({ cmd: 'stats' });
  report(label, {
    watchers, writes, eventKb: bytes / 1024, rssBeforeMb: base['rssMb'], peakRssMb: during['peakMb'], heapMb: during['heapMb'], externalMb: during['externalMb'], unsentMb: during['unsentMb'], rssAfterClientsLeftMb: after['rssMb'],
    watchersStillOpenAfterWrites: during['watchers'], readerGot: reader.lines(), readerMs: Math.round(performance.now() - started),
  });
  agent.destroy();
}

async function listStorm(s: Server, clients: number, objects: number, capMs: number): Promise<void> {
  await s.send({ cmd: 'seed', count: objects, bytes: 700, prefix: 'storm' });
  await s.send({ cmd: 'resetPeak' });
  const agent = new Agent({ keepAlive: true, maxSockets: clients + 10 });
  const abort = new AbortController();
  const started = performance.now();
  const prober = startProber(s);
  const cap = setTimeout(() => abort.abort(), capMs);
  const answers = await Promise.all(Array.from({ length: clients }, () => call(s, agent, 'GET', '/api/v1/namespaces/default/configmaps', { signal: abort.signal })));
  clearTimeout(cap);
  const health = await prober.stop();
  const elapsed = performance.now() - started;
  const during = await s.send({ cmd: 'stats' });
  agent.destroy();
  await sleep(1000);
  const cpuLeft = (await s.send({ cmd: 'stats' }))['cpuMs']!;
  await sleep(3000);
  const cpuLater = (await s.send({ cmd: 'stats' }))['cpuMs']!;
  const count = (code: number) => answers.filter((a) => a.status === code).length;
  const ok = answers.filter((a) => a.status === 200).map((a) => a.ms).sort((a, b) => a - b);
  health.sort((a, b) => a - b);
  report('list storm', {
    clients, objects, ok: count(200), tooMany: count(429), unfinished: count(-1), seconds: Math.round(elapsed / 100) / 10,
    firstOkMs: Math.round(ok[0] ?? -1), lastOkMs: Math.round(ok.at(-1) ?? -1), healthzP50Ms: Math.round(health[Math.floor(health.length / 2)] ?? -1),
    healthzMaxMs: Math.round(health.at(-1) ?? -1), serverLoopBlockedMaxMs: during['loopBlockedMaxMs'], peakRssMb: during['peakMb'], serverCpuMsIn3sAfterClientsLeft: cpuLater - cpuLeft,
  });
}

/** /healthz every 100 ms from a process of its own (this one is busy reading the storm's answers). */
function startProber(s: Server): { stop: () => Promise<number[]> } {
  const child = spawn(process.execPath, [SELF, '--probe', JSON.stringify({ url: `${s.url}/healthz`, token: s.token, ca: s.ca })], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  return {
    stop: () => new Promise((done) => {
      child.once('exit', () => done(JSON.parse(out.trim() || '[]') as number[]));
      child.stdin!.end();
    }),
  };
}

async function probe(spec: { url: string; token: string; ca: string }): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let running = true;
  process.stdin.resume().on('end', () => (running = false));
  while (running) {
    const started = performance.now();
    await new Promise<void>((done) => {
      const req = request(spec.url, { headers: { Authorization: `Bearer ${spec.token}` }, agent, ca: spec.ca }, (res) => res.resume().on('end', done));
      req.on('error', () => done());
      req.end();
    });
    latencies.push(performance.now() - started);
    await sleep(100);
  }
  process.stdout.write(JSON.stringify(latencies) + '\n');
  process.exit(0);
}

async function unauthenticatedFlood(s: Server, requests: number): Promise<void> {
  const before = await s.send({ cmd: 'stats' });
  const agent = new Agent({ keepAlive: true, maxSockets: 50 });
  let next = 0;
  await Promise.all(Array.from({ length: 50 }, async () => {
    while (next < requests) await call(s, agent, 'GET', '/api/v1/namespaces/default/configmaps', { token: 'wrong', userAgent: `intruder-${next++}-${'u'.repeat(200)}` });
  }));
  const after = await s.send({ cmd: 'stats' });
  const view = await call(s, agent, 'GET', '/controller-lab/admin/clients', { keep: true });
  report('unauthenticated flood', { requests, rssBeforeMb: before['rssMb'], rssAfterMb: after['rssMb'], clientsInView: JSON.parse(view.body).clients.length, clientsViewMs: Math.round(view.ms), clientsViewKb: Math.round(view.body.length / 1024) });
  agent.destroy();
}

async function deepJson(s: Server): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'deeps.bench.example.com' }, spec: { group: 'bench.example.com', names: { plural: 'deeps', singular: 'deep', kind: 'Deep' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } };
  await call(s, agent, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: JSON.stringify(crd) });
  await sleep(200);
  const nested = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  const path = '/apis/bench.example.com/v1/namespaces/default/deeps';
  const create = await call(s, agent, 'POST', path, { body: `{"apiVersion":"bench.example.com/v1","kind":"Deep","metadata":{"name":"d"},"spec":${nested(4300)}}` });
  const list = await call(s, agent, 'GET', path);
  const watch = readingWatch(s, agent, `${path}?watch=1`);
  await sleep(1000);
  watch.stop();
  const huge = await call(s, agent, 'POST', '/api/v1/namespaces/default/configmaps', { body: '['.repeat(100_000) + ']'.repeat(100_000) });
  report('deep json', { create4300: create.status, listAfter: list.status, serverAliveAfterWatch: s.alive(), post100k: huge.status });
  agent.destroy();
}

async function main(): Promise<void> {
  console.log(`serving ${SRC}${FULL ? ' (full sizes)' : ''}`);
  const s = await startServer();
  const only = arg('--only');
  const run = (name: string) => only === undefined || only === name;
  if (run('watchers')) await watchersThatNeverRead(s, Number(arg('--watchers') ?? 200), FULL ? 20_000 : 3000, 4096, '200 watchers that never read', 'a');
  if (run('bigwrites')) await watchersThatNeverRead(s, 10, FULL ? 20_000 : 8000, 4096, '10 watchers that never read, big writes', 'b');
  if (run('lists')) await listStorm(s, Number(arg('--clients') ?? (FULL ? 500 : 300)), Number(arg('--objects') ?? 10_000), FULL ? 60_000 : 20_000);
  if (run('unauth')) await unauthenticatedFlood(s, FULL ? 20_000 : 5000);
  if (run('deep')) await deepJson(s);
  const final = await s.send({ cmd: 'stats' });
  report('end', { serverAlive: s.alive(), rssMb: final?.['rssMb'] });
  s.child.stdin!.write(JSON.stringify({ cmd: 'exit' }) + '\n');
}

if (process.argv.includes('--serve')) await serve();
else if (arg('--stall') !== undefined) await stall(JSON.parse(arg('--stall')!));
else if (arg('--probe') !== undefined) await probe(JSON.parse(arg('--probe')!));
else await main();

// `npm run bench:sim`: the simulated cluster over HTTPS against the figures of a real kube-apiserver
// v1.28 + etcd on a 2-core machine. The server runs in its own process (this file, `--serve`), as a
// real apiserver would; this process is the client. Prints a markdown table with ratios.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:https';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------------------------------------
// Server role: the sim plus a tiny stdin protocol to seed objects in-process and read memory.
// ---------------------------------------------------------------------------------------------

async function serve(): Promise<void> {
  const { createSimCluster } = await import('../src/sim/simCluster.ts');
  const { startSimServer } = await import('../src/sim/server/simServer.ts');
  const cluster = createSimCluster({ watchCacheSize: 250_000, defaultNamespaces: true });
  const server = await startSimServer(cluster, {});
  const gvrCm = { group: '', version: 'v1', resource: 'configmaps' };
  const gvrNs = { group: '', version: 'v1', resource: 'namespaces' };
  const reply = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
  reply({ url: server.url, token: server.token, ca: server.caPem });
  const gc = (globalThis as { gc?: () => void }).gc;
  for await (const line of createInterface({ input: process.stdin })) {
    const cmd = JSON.parse(line) as { cmd: string; namespace?: string; count?: number; dataBytes?: number };
    if (cmd.cmd === 'seed') {
      const ns = cmd.namespace!;
      cluster.create(gvrNs, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      const rvBefore = cluster.resourceVersion;
      const filler = 'x'.repeat(cmd.dataBytes ?? 0);
      for (let i = 0; i < cmd.count!; i++) {
        cluster.create(gvrCm, ns, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: ns, labels: { app: 'bench' } }, data: { filler } });
      }
      reply({ rvBefore, rvAfter: cluster.resourceVersion });
    } else if (cmd.cmd === 'cpu') {
      const { user, system } = process.cpuUsage();
      reply({ cpuMicros: user + system });
    } else if (cmd.cmd === 'memory') {
      for (let i = 0; i < 3; i++) gc?.();
      await new Promise((r) => setTimeout(r, 50));
      gc?.();
      reply({ heapUsed: process.memoryUsage().heapUsed, gc: gc !== undefined });
    } else if (cmd.cmd === 'exit') {
      await server.stop();
      await cluster.close();
      reply({ bye: true });
      process.exit(0);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Client role.
// ---------------------------------------------------------------------------------------------

interface ServerProcess {
  url: string;
  token: string;
  ca: string;
  child: ChildProcess;
  send(cmd: object): Promise<Record<string, number | boolean>>;
}

async function startServerProcess(): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--expose-gc', SELF, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse(((await lines.next()).value as string | undefined) ?? 'null');
  const hello = (await next()) as { url: string; token: string; ca: string };
  return {
    ...hello,
    child,
    async send(cmd) {
      child.stdin!.write(JSON.stringify(cmd) + '\n');
      return next();
    },
  };
}

function httpsJson(server: ServerProcess, agent: Agent, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${server.token}`, Accept: 'application/json' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    const req = request(`${server.url}${path}`, { method, headers, agent, ca: server.ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Creates per second, and the server's CPU time per create (µs): robust to a busy machine. */
async function createsPerSecond(server: ServerProcess, inFlight: number, durationMs: number, run: number): Promise<{ rate: number; cpuPerCreate: number }> {
  const ns = `creates-${inFlight}-${run}`;
  const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
  await httpsJson(server, agent, 'POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
  let next = 0;
  let done = 0;
  const cpuBefore = (await server.send({ cmd: 'cpu' }))['cpuMicros'] as number;
  const deadline = performance.now() + durationMs;
  const start = performance.now();
  const worker = async () => {
    while (performance.now() < deadline) {
      const i = next++;
      const r = await httpsJson(server, agent, 'POST', `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify({ metadata: { name: `cm-${i}` }, data: { k: 'v' } }));
      if (r.status !== 201) throw new Error(`create answered ${r.status}: ${r.body}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = performance.now() - start;
  const cpuAfter = (await server.send({ cmd: 'cpu' }))['cpuMicros'] as number;
  agent.destroy();
  return { rate: (done / elapsed) * 1000, cpuPerCreate: (cpuAfter - cpuBefore) / done };
}

/** Opens `watchers` watches from `fromRv` and waits until each received `events` lines. */
async function watchEventsPerSecond(server: ServerProcess, ns: string, fromRv: number, events: number, watchers: number, parse: boolean): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: watchers });
  const start = performance.now();
  await Promise.all(
    Array.from(
      { length: watchers },
      () =>
        new Promise<void>((resolve, reject) => {
          const req = request(
            `${server.url}/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${fromRv}`,
            { headers: { Authorization: `Bearer ${server.token}`, Accept: 'application/json' }, agent, ca: server.ca },
            (res) => {
              let seen = 0;
              let rest = '';
              res.on('data', (chunk: Buffer) => {
                if (parse) {
                  const text = rest + chunk.toString('utf8');
                  let from = 0;
                  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
                    JSON.parse(text.slice(from, nl));
                    seen++;
                    from = nl + 1;
                  }
                  rest = text.slice(from);
                } else {
                  // Bytes, not text: what the transport delivers, without decoding.
                  for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) seen++;
                }
                if (seen >= events) {
                  req.destroy();
                  resolve();
                }
              });
              res.on('error', () => undefined);
              res.on('end', () => (seen >= events ? resolve() : reject(new Error(`watch ended after ${seen} events`))));
            },
          );
          req.on('error', (e) => (e.message.includes('aborted') || (e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
          req.end();
        }),
    ),
  );
  const elapsed = performance.now() - start;
  agent.destroy();
  return ((events * watchers) / elapsed) * 1000;
}

/** Median ms of a LIST (request to parsed items), and of JSON.parse alone on the same body (the client's floor). */
async function listMs(server: ServerProcess, ns: string, rvZero: boolean, expected: number): Promise<{ total: number; parse: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const path = `/api/v1/namespaces/${ns}/configmaps${rvZero ? '?resourceVersion=0' : ''}`;
  const times: number[] = [];
  const parses: number[] = [];
  for (let i = 0; i < 7; i++) {
    const start = performance.now();
    const r = await httpsJson(server, agent, 'GET', path);
    const list = JSON.parse(r.body) as { items: unknown[] };
    times.push(performance.now() - start);
    if (list.items.length !== expected) throw new Error(`list returned ${list.items.length} items`);
    const parseStart = performance.now();
    JSON.parse(r.body);
    parses.push(performance.now() - parseStart);
  }
  agent.destroy();
  return { total: median(times.slice(1)), parse: median(parses.slice(1)) }; // the first warms the path
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const runs = Number(process.env['BENCH_RUNS'] ?? 3);
  const loadBefore = loadavg()[0]!;
  const server = await startServerProcess();
  const rows: { name: string; unit: string; reference: number | undefined; better: 'higher' | 'lower'; values: number[] }[] = [];
  const row = (name: string, unit: string, reference: number | undefined, better: 'higher' | 'lower') => {
    const r = { name, unit, reference, better, values: [] as number[] };
    rows.push(r);
    return r;
  };
  const c1 = row('creates/s, 1 in flight', '/s', 600, 'higher');
  const c16 = row('creates/s, 16 in flight', '/s', 1900, 'higher');
  const c64 = row('creates/s, 64 in flight', '/s', undefined, 'higher');
  const cpu = row('server CPU per create (16 in flight)', 'µs', undefined, 'lower');
  const w1 = row('watch events/s to 1 watcher (1 KB objects, lines counted)', '/s', 73_000, 'higher');
  const w1p = row('watch events/s to 1 watcher (each line JSON.parsed)', '/s', 73_000, 'higher');
  const w100 = row('watch events/s to 100 watchers (total)', '/s', undefined, 'higher');
  const lc = row('LIST 10k ConfigMaps, consistent (incl. JSON.parse)', 'ms', 221, 'lower');
  const l0 = row('LIST 10k ConfigMaps, RV=0 (incl. JSON.parse)', 'ms', 99, 'lower');
  const lp = row('  of which the client\'s JSON.parse alone', 'ms', undefined, 'lower');
  const mem = row('server heap per 10k ConfigMaps (1 KB)', 'MB', undefined, 'lower');

  const WATCH_EVENTS = 50_000;
  const watchSeed = await server.send({ cmd: 'seed', namespace: 'watch', count: WATCH_EVENTS, dataBytes: 900 });
  const listSeed = await server.send({ cmd: 'seed', namespace: 'list', count: 10_000, dataBytes: 100 });
  void listSeed;

  for (let run = 0; run < runs; run++) {
    process.stderr.write(`run ${run + 1}/${runs}…\n`);
    c1.values.push((await createsPerSecond(server, 1, 2000, run)).rate);
    const sixteen = await createsPerSecond(server, 16, 2000, run);
    c16.values.push(sixteen.rate);
    cpu.values.push(sixteen.cpuPerCreate);
    c64.values.push((await createsPerSecond(server, 64, 2000, run)).rate);
    w1.values.push(await watchEventsPerSecond(server, 'watch', watchSeed['rvBefore'] as number, WATCH_EVENTS, 1, false));
    w1p.values.push(await watchEventsPerSecond(server, 'watch', watchSeed['rvBefore'] as number, WATCH_EVENTS, 1, true));
    w100.values.push(await watchEventsPerSecond(server, 'watch', watchSeed['rvBefore'] as number, 5000, 100, false));
    const consistent = await listMs(server, 'list', false, 10_000);
    lc.values.push(consistent.total);
    lp.values.push(consistent.parse);
    l0.values.push((await listMs(server, 'list', true, 10_000)).total);
    const before = await server.send({ cmd: 'memory' });
    await server.send({ cmd: 'seed', namespace: `mem-${run}`, count: 10_000, dataBytes: 900 });
    const afterSeed = await server.send({ cmd: 'memory' });
    mem.values.push(((afterSeed['heapUsed'] as number) - (before['heapUsed'] as number)) / 1024 / 1024);
  }
  await server.send({ cmd: 'exit' });

  const fmt = (n: number, unit: string) => (unit === '/s' || unit === 'µs' ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));
  const lines = [
    `Simulated cluster over HTTPS (server and client in separate processes, ${cpus().length} CPUs, load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}).`,
    'Ratio: the sim\'s speed relative to the reference (above 1× = faster).',
    '',
    `| measurement | sim (median of ${runs}) | kube-apiserver v1.28 + etcd (2 cores) | ratio |`,
    '|---|---:|---:|---:|',
  ];
  for (const r of rows) {
    const m = median(r.values);
    const ratio = r.reference === undefined ? '—' : `${(r.better === 'higher' ? m / r.reference : r.reference / m).toFixed(1)}×`;
    lines.push(`| ${r.name} | ${fmt(m, r.unit)} ${r.unit} | ${r.reference === undefined ? '—' : `${fmt(r.reference, r.unit)} ${r.unit}`} | ${ratio} |`);
  }
  process.stdout.write(lines.join('\n') + '\n');
}

if (process.argv.includes('--serve')) {
  serve().catch((err: unknown) => {
    process.stderr.write(`bench server: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}

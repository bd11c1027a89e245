// `node bench/simDurability.bench.ts`: what `--state-dir` costs. Creates per second over HTTPS against
// `controller-lab sim` processes, in memory and with a state dir (every answer waits for its journal
// batch's fdatasync; concurrent writers share one), and the longest event-loop stall while a
// snapshot of 20 000 objects is written. `--quick` halves the durations.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const QUICK = process.argv.includes('--quick');
const SECONDS = QUICK ? 2 : 4;

interface Sim {
  url: string;
  token: string;
  ca: string;
  child: ChildProcess;
}

async function startSim(stateDir: string | undefined): Promise<Sim> {
  const kubeDir = mkdtempSync(join(tmpdir(), 'bench-kube-'));
  const args = ['src/cli/main.ts', 'sim', '--port', '0', '--kubeconfig-out', join(kubeDir, 'kubeconfig'), ...(stateDir ? ['--state-dir', stateDir] : [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  await new Promise<void>((res, rej) => {
    child.stdout!.on('data', () => /Press Ctrl\+C/.test(out) && res());
    child.once('exit', (code) => rej(new Error(`sim exited ${code}`)));
  });
  const kubeconfig = readFileSync(join(kubeDir, 'kubeconfig'), 'utf8');
  rmSync(kubeDir, { recursive: true, force: true });
  return {
    url: /serving on (\S+)/.exec(out)![1]!,
    token: /token: (\S+)/.exec(kubeconfig)![1]!,
    ca: Buffer.from(/certificate-authority-data: (\S+)/.exec(kubeconfig)![1]!, 'base64').toString(),
    child,
  };
}

function post(sim: Sim, agent: Agent, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) };
    const req = request(`${sim.url}${path}`, { method: 'POST', headers, agent, ca: sim.ca }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function createsPerSecond(sim: Sim, inFlight: number): Promise<{ rate: number; p99: number }> {
  const ns = `bench-${inFlight}`;
  const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
  await post(sim, agent, '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
  let next = 0;
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      const status = await post(sim, agent, `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify({ metadata: { name: `cm-${next++}` }, data: { k: 'v' } }));
      if (status !== 201) throw new Error(`create answered ${status}`);
      latencies.push(performance.now() - t);
    }
  }));
  const elapsed = performance.now() - start;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rate: (latencies.length / elapsed) * 1000, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
}

async function snapshotStall(objects: number): Promise<{ maxMs: number; totalMs: number }> {
  const { SimCluster } = await import('../src/sim/simCluster.ts');
  const dir = mkdtempSync(join(tmpdir(), 'bench-state-'));
  const cluster = new SimCluster({ stateDir: dir, persistence: { quietMs: 300 } });
  for (let i = 0; i < objects; i++) {
    cluster.create({ group: '', version: 'v1', resource: 'configmaps' }, 'default', { metadata: { name: `cm-${i}`, labels: { app: 'bench' } }, data: { filler: 'x'.repeat(300) } });
  }
  await cluster.whenDurable();
  // Writes went quiet: the journal is folded into a snapshot of every object while the loop runs.
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const start = performance.now();
  const snapshotSize = () => {
    try {
      return statSync(join(dir, 'state.json')).size;
    } catch {
      return 0;
    }
  };
  while (snapshotSize() < objects * 300) await new Promise((r) => setTimeout(r, 5));
  const totalMs = performance.now() - start;
  h.disable();
  await cluster.close();
  rmSync(dir, { recursive: true, force: true });
  return { maxMs: h.max / 1e6, totalMs };
}

async function main(): Promise<void> {
  if (process.argv.includes('--stall-only')) {
    const stall = await snapshotStall(20_000);
    console.log(`longest stall ${stall.maxMs.toFixed(1)} ms, ${stall.totalMs.toFixed(0)} ms`);
    return;
  }
  const rows: string[] = ['| creates over HTTPS | in memory | --state-dir | ratio |', '|---|---|---|---|'];
  for (const inFlight of [1, 16]) {
    const memory = await startSim(undefined);
    const inMemory = await createsPerSecond(memory, inFlight);
    memory.child.kill('SIGTERM');
    const dir = mkdtempSync(join(tmpdir(), 'bench-state-'));
    const durable = await startSim(dir);
    const onDisk = await createsPerSecond(durable, inFlight);
    durable.child.kill('SIGTERM');
    await new Promise((r) => durable.child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
    rows.push(`| ${inFlight} in flight: creates/s (p99 ms) | ${inMemory.rate.toFixed(0)} (${inMemory.p99.toFixed(1)}) | ${onDisk.rate.toFixed(0)} (${onDisk.p99.toFixed(1)}) | ${(onDisk.rate / inMemory.rate).toFixed(2)} |`);
  }
  const stall = await snapshotStall(20_000);
  console.log(rows.join('\n'));
  console.log(`\nsnapshot of 20 000 ConfigMaps (7 MB) while serving: longest event-loop stall ${stall.maxMs.toFixed(1)} ms (from quiet to snapshot on disk: ${stall.totalMs.toFixed(0)} ms)`);
}

await main();

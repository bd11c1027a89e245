// `node bench/workloads.bench.ts`: how long a 100-replica Deployment takes to roll out, and a
// rolling update to complete, on `controller-lab sim --workloads`, timed the way a user sees it:
// from `kubectl create`/`kubectl set image` until `kubectl rollout status` returns. Fake Nodes
// start each Pod after the delay given (500 ms by default); the rest is the controllers' own work.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownTable, textTable } from './lib/table.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const REPLICAS = Number(process.env['REPLICAS'] ?? 100);

function kubectl(kubeconfig: string, cache: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cache, ...args], { timeout: 300_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`kubectl ${args.join(' ')}: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

async function measure(podStartDelay: string): Promise<{ rollout: number; update: number; pods: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'controller-lab-bench-workloads-'));
  const sim = spawn(process.execPath, ['src/cli/main.ts', 'sim', '--port', '0', '--state-dir', dir, '--workloads', '--nodes', '3', '--pod-start-delay', podStartDelay], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    let out = '';
    const kubeconfig = await new Promise<string>((resolve, reject) => {
      sim.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const path = /Kubeconfig: (\S+)/.exec(out)?.[1];
        if (path && /Workloads:/.test(out)) resolve(path);
      });
      sim.once('exit', (code) => reject(new Error(`sim exited with ${code}`)));
    });
    const cache = join(dir, 'kubectl-cache');
    const k = (args: string[]) => kubectl(kubeconfig, cache, args);
    await k(['get', 'nodes']);
    let t = performance.now();
    await k(['create', 'deployment', 'web', '--image=nginx:1.25', `--replicas=${REPLICAS}`]);
    await k(['rollout', 'status', 'deployment/web', '--timeout=300s']);
    const rollout = performance.now() - t;
    t = performance.now();
    await k(['set', 'image', 'deployment/web', 'nginx=nginx:1.26']);
    await k(['rollout', 'status', 'deployment/web', '--timeout=300s']);
    const update = performance.now() - t;
    const pods = (await k(['get', 'pods', '--no-headers'])).trim().split('\n').filter((l) => / Running /.test(l)).length;
    return { rollout, update, pods };
  } finally {
    sim.kill('SIGTERM');
    await new Promise((r) => sim.once('exit', r));
    await rm(dir, { recursive: true, force: true });
  }
}

const header = ['pod start delay', `${REPLICAS}-replica rollout`, 'rolling update (25% surge/unavailable)', 'Running Pods at the end'];
const rows: string[][] = [];
for (const delay of ['500ms', '0ms']) {
  const r = await measure(delay);
  rows.push([delay, `${(r.rollout / 1000).toFixed(2)} s`, `${(r.update / 1000).toFixed(2)} s`, String(r.pods)]);
}
console.log(textTable(header, rows));
console.log(`\n${markdownTable(header, rows)}`);

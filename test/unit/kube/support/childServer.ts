import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { loadCluster } from '../../../../src/kube/cluster.ts';
import type { Cluster } from '../../../../src/kube/index.ts';
import { scratchDir, writeKubeconfig } from './loopbackApi.ts';

/**
 * Runs `source` (a Node script that listens on 127.0.0.1 and prints its port) in a process of its
 * own, as a real API server is: while the client is busy, it keeps the socket full. The script
 * exits when its stdin closes (`stop`).
 */
export async function startChildServer(source: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['-e', source], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.stdin.end() };
}

/** A cluster (kubeconfig in a scratch folder) on a child-process server; all gone after the test. */
export async function clusterOnChildServer(t: { after(fn: () => unknown): void }, source: string): Promise<Cluster> {
  const server = await startChildServer(source);
  const { dir, cleanup } = scratchDir();
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: server.url }) });
  t.after(() => {
    cluster.close();
    server.stop();
    cleanup();
  });
  return cluster;
}

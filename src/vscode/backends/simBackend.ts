import { readdirSync } from 'node:fs';
import { loadCluster } from '../../kube/index.ts';
import { startSimServer, createSimCluster } from '../../sim/index.ts';
import type { ClusterBackend } from '../model/clusterSession.ts';
import { VIEWS_USER_AGENT } from './kubeconfigBackend.ts';
import { seedSampleObjects } from './sampleObjects.ts';

// The simulated cluster, in the extension host: the store, its HTTPS server on 127.0.0.1 (random
// port, random token), and a client for it built from the kubeconfig the server wrote — the same
// HTTP path a real cluster takes, so what the views show is what any client would see.

export interface SimBackendOptions {
  /** Where the sim's kubeconfig goes (stable across sessions for kubectl and external controllers). */
  kubeconfigOut?: string;
  sampleObjects: boolean;
  bookmarkIntervalMs?: number;
  /**
   * Where the cluster's state is kept, so a window reload (or Disconnect, then Start) finds its
   * objects again. Unset: in memory only, a new cluster each time.
   */
  stateDir?: string;
}

function holdsState(dir: string | undefined): boolean {
  if (!dir) return false;
  try {
    return readdirSync(dir).some((f) => f.startsWith('state'));
  } catch {
    return false;
  }
}

export async function createSimBackend(options: SimBackendOptions): Promise<ClusterBackend> {
  const restoring = holdsState(options.stateDir);
  const sim = createSimCluster({ bookmarkIntervalMs: options.bookmarkIntervalMs ?? 15_000, ...(options.stateDir ? { stateDir: options.stateDir } : {}) });
  try {
    // Sample objects only in a new cluster: a restored one has the user's own (or their deletions).
    if (options.sampleObjects && !restoring) seedSampleObjects(sim);
    const server = await startSimServer(sim, {
      ...(options.kubeconfigOut ? { kubeconfigOut: options.kubeconfigOut } : {}),
      ...(options.stateDir ? { stateDir: options.stateDir } : {}),
    });
    const cluster = loadCluster({ kubeconfig: server.kubeconfigPath, userAgent: VIEWS_USER_AGENT });
    try {
      await cluster.discover();
    } catch (err) {
      cluster.close();
      await server.stop();
      throw err;
    }
    return {
      kind: 'sim',
      name: 'Simulated cluster',
      cluster,
      sim,
      clients: sim.clients,
      kubeconfigPath: server.kubeconfigPath,
      origin: restoring
        ? { kind: 'restored', objects: sim.stats().resources.reduce((n, r) => n + r.objects, 0), stateDir: options.stateDir! }
        : { kind: 'new', ...(options.stateDir ? { stateDir: options.stateDir } : {}) },
      async dispose() {
        cluster.close();
        await server.stop();
        await sim.close();
      },
    };
  } catch (err) {
    await sim.close();
    throw err;
  }
}

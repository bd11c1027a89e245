import { loadCluster } from '../../kube/cluster.ts';
import { startSimServer } from '../../sim/server/simServer.ts';
import { createSimCluster } from '../../sim/simCluster.ts';
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
}

export async function createSimBackend(options: SimBackendOptions): Promise<ClusterBackend> {
  const sim = createSimCluster({ bookmarkIntervalMs: options.bookmarkIntervalMs ?? 15_000 });
  try {
    if (options.sampleObjects) seedSampleObjects(sim);
    const server = await startSimServer(sim, options.kubeconfigOut ? { kubeconfigOut: options.kubeconfigOut } : {});
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

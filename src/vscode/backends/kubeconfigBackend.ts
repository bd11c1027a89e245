import { loadCluster } from '../../kube/index.ts';
import type { ClusterBackend } from '../model/clusterSession.ts';

// A real cluster from a kubeconfig context. Discovery runs before we call it connected, so an
// unreachable server, a bad certificate or a 401/403 is reported at connect time, with its cause.

export const VIEWS_USER_AGENT = 'controller-lab-vscode';

export async function createKubeconfigBackend(target: { kubeconfig?: string; context?: string }): Promise<ClusterBackend> {
  const cluster = loadCluster({
    ...(target.kubeconfig ? { kubeconfig: target.kubeconfig } : {}),
    ...(target.context ? { context: target.context } : {}),
    userAgent: VIEWS_USER_AGENT,
  });
  try {
    await cluster.discover();
  } catch (err) {
    cluster.close();
    throw err;
  }
  return { kind: 'kubeconfig', name: cluster.contextName, cluster, dispose: async () => cluster.close() };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerOptions as TlsServerOptions } from 'node:https';
import { configMap, scratchDir, sendJson, serveDiscovery, startLoopbackApi, writeKubeconfig } from '../../kube/support/loopbackApi.ts';
import type { KubeconfigSpec, LoopbackApi } from '../../kube/support/loopbackApi.ts';

// A loopback API server with discovery and configmaps whose list and watch a test scripts, plus a
// kubeconfig for it. Stands in for a cluster until the simulated cluster serves the CLI tests.

export interface ScriptedCluster {
  api: LoopbackApi;
  kubeconfig: string;
  dir: string;
  /** How many watch requests arrived so far. */
  watches: number;
  close(): Promise<void>;
}

export type WatchScript = (res: ServerResponse, attempt: number, url: URL) => void;

export async function startScriptedCluster(options: {
  namespace?: string;
  items?: Record<string, unknown>[];
  listRV?: string;
  watch?: WatchScript;
  kubeconfig?: Partial<KubeconfigSpec>;
  /** Serve HTTPS with this certificate (default: plain HTTP). */
  tls?: TlsServerOptions;
}): Promise<ScriptedCluster> {
  const api = await startLoopbackApi(options.tls);
  serveDiscovery(api);
  const { dir, cleanup } = scratchDir();
  const ns = options.namespace ?? 'default';
  const cluster: ScriptedCluster = {
    api,
    dir,
    kubeconfig: writeKubeconfig(dir, { server: api.url, namespace: options.namespace, ...options.kubeconfig }),
    watches: 0,
    close: async () => {
      await api.close();
      cleanup();
    },
  };
  const handler = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    if (url.searchParams.get('watch') === 'true') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.flushHeaders();
      (options.watch ?? (() => {}))(res, cluster.watches++, url);
      return;
    }
    sendJson(res, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: options.listRV ?? '10' }, items: options.items ?? [] });
  };
  api.route(`/api/v1/namespaces/${ns}/configmaps`, handler);
  api.route('/api/v1/configmaps', handler);
  return cluster;
}

export function watchLine(type: string, name: string, rv: string, namespace = 'default'): string {
  return `${JSON.stringify({ type, object: { ...configMap(name, rv, namespace), metadata: { name, namespace, uid: `uid-${name}`, resourceVersion: rv, creationTimestamp: new Date(Date.now() - 90_000).toISOString() } } })}\n`;
}

export { configMap };

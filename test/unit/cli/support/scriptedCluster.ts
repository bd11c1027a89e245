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
  /** How many list requests arrived so far. */
  lists: number;
  close(): Promise<void>;
}

export type WatchScript = (res: ServerResponse, attempt: number, url: URL) => void;
/** Answers one list request itself (sendList, sendStatus, or a body that stalls). */
export type ListScript = (res: ServerResponse, attempt: number, url: URL) => void;
/** A Status to refuse this watch request with, instead of accepting it. */
export type WatchRefusal = (attempt: number, url: URL) => { code: number; reason: string; message: string; headers?: Record<string, string> } | undefined;

export async function startScriptedCluster(options: {
  namespace?: string;
  items?: Record<string, unknown>[];
  listRV?: string;
  watch?: WatchScript;
  /** Replaces the fixed `items`/`listRV` answer. */
  list?: ListScript;
  refuseWatch?: WatchRefusal;
  /** Each watch answer's Content-Type (default application/json), as a proxy in between may change it. */
  watchContentType?: (attempt: number) => string;
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
    lists: 0,
    close: async () => {
      await api.close();
      cleanup();
    },
  };
  const handler = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    if (url.searchParams.get('watch') === 'true') {
      const attempt = cluster.watches++;
      const refusal = options.refuseWatch?.(attempt, url);
      if (refusal) return void sendStatusWith(res, refusal);
      res.writeHead(200, { 'Content-Type': options.watchContentType?.(attempt) ?? 'application/json' });
      res.flushHeaders();
      (options.watch ?? (() => {}))(res, attempt, url);
      return;
    }
    const attempt = cluster.lists++;
    if (options.list) return void options.list(res, attempt, url);
    sendList(res, options.items ?? [], options.listRV ?? '10');
  };
  api.route(`/api/v1/namespaces/${ns}/configmaps`, handler);
  api.route('/api/v1/configmaps', handler);
  return cluster;
}

export function sendList(res: ServerResponse, items: Record<string, unknown>[], resourceVersion: string): void {
  sendJson(res, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion }, items });
}

function sendStatusWith(res: ServerResponse, s: { code: number; reason: string; message: string; headers?: Record<string, string> }): void {
  const text = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: s.message, reason: s.reason, code: s.code });
  res.writeHead(s.code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...s.headers });
  res.end(text);
}

export function watchLine(type: string, name: string, rv: string, namespace = 'default'): string {
  return `${JSON.stringify({ type, object: { ...configMap(name, rv, namespace), metadata: { name, namespace, uid: `uid-${name}`, resourceVersion: rv, creationTimestamp: new Date(Date.now() - 90_000).toISOString() } } })}\n`;
}

export { configMap };

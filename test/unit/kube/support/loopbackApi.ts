import http from 'node:http';
import https from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

// A real HTTP(S) server on 127.0.0.1:0 that a test scripts route by route, plus a kubeconfig that
// points at it. Tests talk to it through our real client — nothing of ours is mocked.

export type Route = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => void;

export interface LoopbackApi {
  url: string;
  port: number;
  /** Every request seen: method, path with query, headers. */
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders }[];
  /** Sets the handler for a path (without query); unknown paths answer 404 with a Status. */
  route(pathname: string, handler: Route): void;
  close(): Promise<void>;
}

export async function startLoopbackApi(tls?: https.ServerOptions): Promise<LoopbackApi> {
  const routes = new Map<string, Route>();
  const requests: LoopbackApi['requests'] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers });
    const route = routes.get(url.pathname);
    if (route) route(req, res, url);
    else sendStatus(res, 404, 'NotFound', `the server could not find the requested resource (${url.pathname})`);
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    route: (p, h) => void routes.set(p, h),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendStatus(res: http.ServerResponse, code: number, reason: string, message: string): void {
  sendJson(res, code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

export function configMap(name: string, rv: string, namespace = 'default'): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, uid: `uid-${name}`, resourceVersion: rv }, data: { k: 'v' } };
}

export interface KubeconfigSpec {
  server: string;
  namespace?: string;
  cluster?: Record<string, unknown>;
  user?: Record<string, unknown>;
  contextName?: string;
}

/** A scratch directory removed by `cleanup`. */
export function scratchDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'cl-kube-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a one-context kubeconfig (JSON is YAML) and returns its path. */
export function writeKubeconfig(dir: string, spec: KubeconfigSpec, file = 'config'): string {
  const name = spec.contextName ?? 'loopback';
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: spec.server, ...spec.cluster } }],
    users: [{ name, user: { token: 'test-token', ...spec.user } }],
    contexts: [{ name, context: { cluster: name, user: name, ...(spec.namespace ? { namespace: spec.namespace } : {}) } }],
    'current-context': name,
  };
  const file_ = path.join(dir, file);
  writeFileSync(file_, JSON.stringify(doc, null, 2));
  return file_;
}

/** Discovery routes of a small cluster: core configmaps/namespaces/events, apps deployments, a CRD. */
export function serveDiscovery(api: LoopbackApi, form: 'legacy' | 'aggregated' = 'legacy'): void {
  const core = [
    { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ['list', 'watch', 'get'], shortNames: ['cm'] },
    { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['list', 'watch'], shortNames: ['ns'] },
    { name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['list', 'watch'], shortNames: ['ev'] },
    { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['list', 'watch'], shortNames: ['po'] },
    { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
  ];
  const groups = [
    { name: 'apps', versions: ['v1'], resources: { v1: [{ name: 'deployments', singularName: 'deployment', namespaced: true, kind: 'Deployment', verbs: ['list', 'watch'], shortNames: ['deploy'] }, { name: 'deployments/scale', singularName: '', namespaced: true, kind: 'Scale', verbs: ['get'] }] } },
    { name: 'events.k8s.io', versions: ['v1'], resources: { v1: [{ name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['list', 'watch'], shortNames: ['ev'] }] } },
    {
      name: 'example.com',
      versions: ['v1', 'v1beta1'],
      resources: {
        v1: [{ name: 'widgets', singularName: 'widget', namespaced: true, kind: 'Widget', verbs: ['list', 'watch'], shortNames: ['wd'] }],
        v1beta1: [{ name: 'widgets', singularName: 'widget', namespaced: true, kind: 'Widget', verbs: ['list', 'watch'], shortNames: ['wd'] }],
      },
    },
  ] as { name: string; versions: string[]; resources: Record<string, typeof core> }[];
  if (form === 'aggregated') {
    const toAgg = (rs: typeof core, group: string, version: string) =>
      rs.filter((r) => !r.name.includes('/')).map((r) => ({
        resource: r.name,
        responseKind: { group, version, kind: r.kind },
        scope: r.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: r.singularName,
        verbs: r.verbs,
        ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      }));
    const list = (items: unknown[]) => ({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items });
    api.route('/api', (req, res) => sendJson(res, 200, list([{ metadata: {}, versions: [{ version: 'v1', resources: toAgg(core, '', 'v1') }] }])));
    api.route('/apis', (req, res) =>
      sendJson(res, 200, list(groups.map((g) => ({ metadata: { name: g.name }, versions: g.versions.map((v) => ({ version: v, resources: toAgg(g.resources[v] ?? [], g.name, v) })) })))),
    );
    return;
  }
  api.route('/api', (req, res) => sendJson(res, 200, { kind: 'APIVersions', versions: ['v1'] }));
  api.route('/api/v1', (req, res) => sendJson(res, 200, { kind: 'APIResourceList', groupVersion: 'v1', resources: core }));
  api.route('/apis', (req, res) =>
    sendJson(res, 200, {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: groups.map((g) => ({
        name: g.name,
        versions: g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v })),
        preferredVersion: { groupVersion: `${g.name}/${g.versions[0]}`, version: g.versions[0] },
      })),
    }),
  );
  for (const g of groups) {
    for (const v of g.versions) {
      api.route(`/apis/${g.name}/${v}`, (req, res) => sendJson(res, 200, { kind: 'APIResourceList', groupVersion: `${g.name}/${v}`, resources: g.resources[v] }));
    }
  }
}

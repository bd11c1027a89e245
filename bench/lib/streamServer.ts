import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { podJson } from './podJson.ts';

// A loopback API server for informer benchmarks: one namespace of N objects — ConfigMaps of about
// 1 KB, or Pods of about 5.5 KB as a real cluster returns them — and a watch stream of pre-rendered
// events (70% MODIFIED, 15% ADDED, 15% DELETED) that stays consistent with the list. Everything is
// rendered before the clock starts, so the server costs nothing but socket writes while a
// contender runs in its own process. A client that asks for protobuf gets it when the stream has a
// protobuf rendering (client-go renders it: see bench/client-go-informer).

export const BENCH_NAMESPACE = 'bench';

export type Workload = 'configmaps' | 'pods';

export interface StreamSpec {
  objects: number;
  events: number;
  /** Default configmaps. */
  workload?: Workload;
  /** Deterministic choice of which objects change. */
  seed?: number;
  /**
   * Ends the stream with one more ADDED event for a new object, `last-object`: the first event
   * any client sees for it is the last of the stream (for `--exit-when-seen`).
   */
  sentinel?: boolean;
}

/** The name of the object a `sentinel` stream adds last. */
export const SENTINEL_NAME = 'last-object';

export interface RenderedStream {
  spec: StreamSpec;
  list: Buffer;
  listResourceVersion: number;
  /** The watch body: one JSON event per line. */
  watch: Buffer;
  /** Objects left after every event. */
  finalObjects: number;
  counts: { ADDED: number; MODIFIED: number; DELETED: number };
  /** The same list and watch as kube-apiserver sends them to a protobuf client. */
  protobuf?: { list: Buffer; watch: Buffer };
}

export function listPathOf(workload: Workload = 'configmaps'): string {
  return `/api/v1/namespaces/${BENCH_NAMESPACE}/${workload}`;
}

const PAYLOAD = 'x'.repeat(620);

function configMapJson(name: string, rv: number, generation: number): string {
  return (
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","namespace":"${BENCH_NAMESPACE}",` +
    `"uid":"6f1b${name.padStart(12, '0').slice(-12)}-0000-4000-8000-000000000000","resourceVersion":"${rv}",` +
    `"creationTimestamp":"2026-01-01T00:00:00Z","labels":{"app":"bench","tier":"t${rv % 7}"},` +
    `"annotations":{"controller-lab.dev/generation":"${generation}"}},` +
    `"data":{"payload":"${PAYLOAD}","index":"${rv}"}}`
  );
}

/** xorshift32: the same stream every run. */
function random(seed: number): () => number {
  let x = seed || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

/** Object number `index` at `rv`; `version` counts its changes (a ConfigMap's generation, a Pod's restarts). */
type Render = (index: number, rv: number, version: number) => string;

const RENDERERS: Record<Workload, { listKind: string; render: Render }> = {
  configmaps: { listKind: 'ConfigMapList', render: (index, rv, version) => configMapJson(`cm-${index}`, rv, version + 1) },
  pods: { listKind: 'PodList', render: (index, rv, version) => podJson(BENCH_NAMESPACE, index, rv, version) },
};

export function renderStream(spec: StreamSpec): RenderedStream {
  const rand = random(spec.seed ?? 42);
  const { listKind, render } = RENDERERS[spec.workload ?? 'configmaps'];
  // Live objects by index, with how often each changed: a Pod's restart count only grows.
  const live: number[] = [];
  const versions = new Map<number, number>();
  const items: string[] = [];
  let rv = 1000;
  for (let i = 0; i < spec.objects; i++) {
    live.push(i);
    versions.set(i, 0);
    items.push(render(i, ++rv, 0));
  }
  const listResourceVersion = rv;
  const list = Buffer.from(`{"kind":"${listKind}","apiVersion":"v1","metadata":{"resourceVersion":"${listResourceVersion}"},"items":[${items.join(',')}]}`);
  items.length = 0;
  const counts = { ADDED: 0, MODIFIED: 0, DELETED: 0 };
  const lines: string[] = [];
  let next = spec.objects;
  for (let i = 0; i < spec.events; i++) {
    const r = rand();
    rv++;
    if (r < 0.15 || live.length === 0) {
      const index = next++;
      live.push(index);
      versions.set(index, 0);
      counts.ADDED++;
      lines.push(`{"type":"ADDED","object":${render(index, rv, 0)}}\n`);
    } else if (r < 0.3) {
      const at = Math.floor(rand() * live.length);
      const index = live[at]!;
      live[at] = live[live.length - 1]!;
      live.pop();
      counts.DELETED++;
      lines.push(`{"type":"DELETED","object":${render(index, rv, versions.get(index)! + 1)}}\n`);
      versions.delete(index);
    } else {
      const index = live[Math.floor(rand() * live.length)]!;
      const version = versions.get(index)! + 1;
      versions.set(index, version);
      counts.MODIFIED++;
      lines.push(`{"type":"MODIFIED","object":${render(index, rv, version)}}\n`);
    }
  }
  if (spec.sentinel) {
    counts.ADDED++;
    live.push(-1);
    const object = spec.workload === 'pods' ? podJson(BENCH_NAMESPACE, next, rv + 1, 0).replace(/"name":"[^"]*"/, `"name":"${SENTINEL_NAME}"`) : configMapJson(SENTINEL_NAME, rv + 1, 1);
    lines.push(`{"type":"ADDED","object":${object}}\n`);
  }
  return { spec, list, listResourceVersion, watch: Buffer.from(lines.join('')), finalObjects: live.length, counts };
}

export interface StreamServer {
  url: string;
  /** Serve this stream from now on; the next watch gets its events once. */
  serve(stream: RenderedStream): void;
  close(): Promise<void>;
}

const CHUNK = 64 * 1024;

/** Writes `body` in socket-sized pieces, honouring backpressure; leaves the response open. */
function writeChunked(res: http.ServerResponse, body: Buffer): void {
  let at = 0;
  const pump = (): void => {
    while (at < body.length) {
      const piece = body.subarray(at, at + CHUNK);
      at += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
  };
  pump();
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

const SERVED_RESOURCES = [
  { name: 'configmaps', singularName: 'configmap', kind: 'ConfigMap', shortNames: ['cm'] },
  { name: 'pods', singularName: 'pod', kind: 'Pod', shortNames: ['po'] },
];
const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/** Legacy discovery, enough for a client to resolve `configmaps` or `pods` as kubectl does. */
const DISCOVERY: Record<string, string> = {
  '/api': JSON.stringify({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] }),
  '/apis': JSON.stringify({ kind: 'APIGroupList', apiVersion: 'v1', groups: [] }),
  '/api/v1': JSON.stringify({
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: SERVED_RESOURCES.map((r) => ({ ...r, namespaced: true, verbs: VERBS })),
  }),
};

/**
 * Aggregated discovery as kube-apiserver v1.28 answers it (apidiscovery.k8s.io/v2beta1, to a client
 * that lists it in its Accept header, as kubectl and client-go do): every group's resources in the
 * answer to /api and /apis, one round trip where the legacy walk takes two.
 */
const AGGREGATED_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const AGGREGATED_DISCOVERY: Record<string, string> = {
  '/api': JSON.stringify({
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2beta1',
    metadata: {},
    items: [
      {
        metadata: { creationTimestamp: null },
        versions: [
          {
            version: 'v1',
            resources: SERVED_RESOURCES.map((r) => ({
              resource: r.name,
              responseKind: { group: '', version: 'v1', kind: r.kind },
              scope: 'Namespaced',
              singularResource: r.singularName,
              verbs: VERBS,
              shortNames: r.shortNames,
            })),
            freshness: 'Current',
          },
        ],
      },
    ],
  }),
  '/apis': JSON.stringify({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2beta1', metadata: {}, items: [] }),
};

/** The discovery answer for `pathname`, in the form the client's Accept header asks for first. */
function discoveryAnswer(pathname: string, accept: string): { type: string; body: string } | undefined {
  const aggregated = AGGREGATED_DISCOVERY[pathname];
  if (aggregated && accept.includes(AGGREGATED_TYPE)) return { type: AGGREGATED_TYPE, body: aggregated };
  const legacy = DISCOVERY[pathname];
  return legacy ? { type: 'application/json', body: legacy } : undefined;
}

export async function startStreamServer(): Promise<StreamServer> {
  let current: RenderedStream | undefined;
  let watchServed = false;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const discovery = discoveryAnswer(url.pathname, req.headers.accept ?? '');
    if (discovery) {
      res.writeHead(200, { 'Content-Type': discovery.type });
      return void res.end(discovery.body);
    }
    const workload = current?.spec.workload;
    // The namespace's collection, or every namespace's (`-A`): the same objects either way.
    if (!current || (url.pathname !== listPathOf(workload) && url.pathname !== `/api/v1/${workload ?? 'configmaps'}`)) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return void res.end('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","reason":"NotFound","code":404}');
    }
    // As kube-apiserver: protobuf when the client lists it first and the kind has a protobuf form.
    const protobuf = current.protobuf && (req.headers.accept ?? '').trimStart().startsWith(PROTOBUF) ? current.protobuf : undefined;
    if (url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1') {
      res.writeHead(200, { 'Content-Type': protobuf ? `${PROTOBUF};stream=watch` : 'application/json', 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      // The first watch gets the whole stream; later ones (a reconnect) stay open and quiet.
      if (!watchServed) {
        watchServed = true;
        writeChunked(res, protobuf ? protobuf.watch : current.watch);
      }
      return;
    }
    // Like a list served from the watch cache: everything at once, `limit` ignored.
    const body = protobuf ? protobuf.list : current.list;
    res.writeHead(200, { 'Content-Type': protobuf ? PROTOBUF : 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serve(stream) {
      current = stream;
      watchServed = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

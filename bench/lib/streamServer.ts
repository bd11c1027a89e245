import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback API server for informer benchmarks: one namespace of N ConfigMaps of about 1 KB, and
// a watch stream of pre-rendered events (70% MODIFIED, 15% ADDED, 15% DELETED) that stays
// consistent with the list. Everything is rendered before the clock starts, so the server costs
// nothing but socket writes while a contender runs in its own process.

export const BENCH_NAMESPACE = 'bench';

export interface StreamSpec {
  objects: number;
  events: number;
  /** Deterministic choice of which objects change. */
  seed?: number;
}

export interface RenderedStream {
  spec: StreamSpec;
  list: Buffer;
  listResourceVersion: number;
  /** The watch body: one JSON event per line. */
  watch: Buffer;
  /** Objects left after every event. */
  finalObjects: number;
  counts: { ADDED: number; MODIFIED: number; DELETED: number };
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

export function renderStream(spec: StreamSpec): RenderedStream {
  const rand = random(spec.seed ?? 42);
  const names: string[] = [];
  const items: string[] = [];
  let rv = 1000;
  for (let i = 0; i < spec.objects; i++) {
    const name = `cm-${i}`;
    names.push(name);
    items.push(configMapJson(name, ++rv, 1));
  }
  const listResourceVersion = rv;
  const list = Buffer.from(
    `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"${listResourceVersion}"},"items":[${items.join(',')}]}`,
  );
  const counts = { ADDED: 0, MODIFIED: 0, DELETED: 0 };
  const lines: string[] = [];
  let next = spec.objects;
  for (let i = 0; i < spec.events; i++) {
    const r = rand();
    rv++;
    if (r < 0.15 || names.length === 0) {
      const name = `cm-${next++}`;
      names.push(name);
      counts.ADDED++;
      lines.push(`{"type":"ADDED","object":${configMapJson(name, rv, 1)}}\n`);
    } else if (r < 0.3) {
      const at = Math.floor(rand() * names.length);
      const name = names[at]!;
      names[at] = names[names.length - 1]!;
      names.pop();
      counts.DELETED++;
      lines.push(`{"type":"DELETED","object":${configMapJson(name, rv, 2)}}\n`);
    } else {
      const name = names[Math.floor(rand() * names.length)]!;
      counts.MODIFIED++;
      lines.push(`{"type":"MODIFIED","object":${configMapJson(name, rv, 2)}}\n`);
    }
  }
  return { spec, list, listResourceVersion, watch: Buffer.from(lines.join('')), finalObjects: names.length, counts };
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

export async function startStreamServer(): Promise<StreamServer> {
  let current: RenderedStream | undefined;
  let watchServed = false;
  const listPath = `/api/v1/namespaces/${BENCH_NAMESPACE}/configmaps`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== listPath || !current) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return void res.end('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","reason":"NotFound","code":404}');
    }
    if (url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.flushHeaders();
      // The first watch gets the whole stream; later ones (a reconnect) stay open and quiet.
      if (!watchServed) {
        watchServed = true;
        writeChunked(res, current.watch);
      }
      return;
    }
    // Like a list served from the watch cache: everything at once, `limit` ignored.
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': current.list.length });
    res.end(current.list);
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

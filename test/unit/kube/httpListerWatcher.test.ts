import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync, createGzip } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { loadCluster } from '../../../src/kube/cluster.ts';
import type { Cluster } from '../../../src/kube/cluster.ts';
import { WatchDecodeError } from '../../../src/kube/watchDecoder.ts';
import { ApiError, isExpired } from '../../../src/shared/apiError.ts';
import type { ApiResource, WatchEvent } from '../../../src/shared/k8s.ts';
import { configMap, scratchDir, sendJson, sendStatus, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';
import type { LoopbackApi } from './support/loopbackApi.ts';

const configmaps: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
const PATH = '/api/v1/namespaces/team-a/configmaps';

async function setup(t: { after(fn: () => unknown): void }, options: { maxRetries?: number } = {}): Promise<{ api: LoopbackApi; cluster: Cluster }> {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }), ...options });
  t.after(async () => {
    cluster.close();
    await api.close();
    cleanup();
  });
  return { api, cluster };
}

/** Collects one watch's events and its close. */
function collector() {
  const events: WatchEvent[] = [];
  let resolveClose: (e: Error | undefined) => void = () => {};
  const closed = new Promise<Error | undefined>((r) => (resolveClose = r));
  return { events, closed, sink: { event: (e: WatchEvent) => void events.push(e), close: (e?: Error) => resolveClose(e) } };
}

function eventLine(type: string, name: string, rv: string): string {
  return `${JSON.stringify({ type, object: configMap(name, rv, 'team-a') })}\n`;
}

test('list sends the query, the bearer token, and returns the items and list RV', async (t) => {
  const { api, cluster } = await setup(t);
  api.route(PATH, (req, res) => sendJson(res, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '42', continue: 'next' }, items: [configMap('a', '40', 'team-a')] }));
  const lw = cluster.listerWatcher(configmaps, { namespace: 'team-a', labelSelector: 'app=web' });
  const list = await lw.list({ limit: 500, resourceVersion: '0' });
  assert.equal(list.metadata.resourceVersion, '42');
  assert.equal(list.items[0]?.metadata.name, 'a');
  const sent = api.requests.at(-1);
  assert.equal(sent?.headers.authorization, 'Bearer test-token');
  assert.equal(sent?.path, `${PATH}?resourceVersion=0&limit=500&labelSelector=app%3Dweb`);
});

test('watch events split across arbitrary chunk boundaries (even inside a UTF-8 character) arrive whole and in order', async (t) => {
  const { api, cluster } = await setup(t);
  const body = Buffer.from(eventLine('ADDED', 'a', '1') + eventLine('MODIFIED', 'ü-ö-日本', '2') + eventLine('DELETED', 'a', '3'));
  api.route(PATH, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    // Cut into 1..7-byte pieces, flushing each separately.
    let at = 0;
    let size = 1;
    const next = (): void => {
      if (at >= body.length) return void res.end();
      res.write(body.subarray(at, at + size), () => setImmediate(next));
      at += size;
      size = (size % 7) + 1;
    };
    next();
  });
  const c = collector();
  await cluster.listerWatcher(configmaps, { namespace: 'team-a' }).watch({ resourceVersion: '0', allowWatchBookmarks: true }, c.sink);
  assert.equal(await c.closed, undefined);
  assert.deepEqual(c.events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion]), [['ADDED', 'a', '1'], ['MODIFIED', 'ü-ö-日本', '2'], ['DELETED', 'a', '3']]);
  assert.match(api.requests.at(-1)?.path ?? '', /watch=true&resourceVersion=0&allowWatchBookmarks=true/);
});

test('a gzip-encoded list and a gzip-encoded watch stream are decoded', async (t) => {
  const { api, cluster } = await setup(t);
  api.route(PATH, (req, res, url) => {
    assert.match(String(req.headers['accept-encoding']), /gzip/);
    if (url.searchParams.get('watch') === 'true') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      const gz = createGzip();
      gz.pipe(res);
      gz.write(eventLine('ADDED', 'z', '7'));
      gz.flush(() => gz.end(eventLine('MODIFIED', 'z', '8')));
      return;
    }
    const zipped = gzipSync(JSON.stringify({ kind: 'ConfigMapList', metadata: { resourceVersion: '5' }, items: [configMap('z', '5')] }));
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': zipped.length });
    res.end(zipped);
  });
  const lw = cluster.listerWatcher(configmaps, { namespace: 'team-a' });
  assert.equal((await lw.list({})).items.length, 1);
  const c = collector();
  await lw.watch({ resourceVersion: '5' }, c.sink);
  assert.equal(await c.closed, undefined);
  assert.deepEqual(c.events.map((e) => e.object.metadata.resourceVersion), ['7', '8']);
});

test('a malformed line is counted and ends the watch with a WatchDecodeError; the good events before it are delivered', async (t) => {
  const { api, cluster } = await setup(t);
  api.route(PATH, (req, res) => {
    res.writeHead(200);
    res.write(eventLine('ADDED', 'a', '1'));
    res.write('{"type":"MODIFIED","object":{"metadata":\n');
    res.write(eventLine('ADDED', 'b', '3'));
  });
  const lw = cluster.listerWatcher(configmaps, { namespace: 'team-a' });
  const c = collector();
  await lw.watch({ resourceVersion: '0' }, c.sink);
  const err = await c.closed;
  assert.ok(err instanceof WatchDecodeError, String(err));
  assert.match(err.message, /not JSON/);
  assert.deepEqual(c.events.map((e) => e.object.metadata.name), ['a']);
  assert.equal(lw.stats.malformedLines, 1);
});

test('a line that is JSON but not a watch event is malformed too', async (t) => {
  const { api, cluster } = await setup(t);
  api.route(PATH, (req, res) => {
    res.writeHead(200);
    res.write('{"kind":"ConfigMap"}\n');
  });
  const c = collector();
  await cluster.listerWatcher(configmaps, { namespace: 'team-a' }).watch({}, c.sink);
  assert.match(String(await c.closed), /not a watch event/);
});

test('HTTP errors reject with ApiError carrying the server Status (401, 403, 404, 410, 429, 500)', async (t) => {
  const { api, cluster } = await setup(t);
  const lw = cluster.listerWatcher(configmaps, { namespace: 'team-a' });
  for (const [code, reason] of [[401, 'Unauthorized'], [403, 'Forbidden'], [404, 'NotFound'], [410, 'Expired'], [429, 'TooManyRequests'], [500, 'InternalError']] as const) {
    api.route(PATH, (req, res) => sendStatus(res, code, reason, `said ${code}`));
    for (const call of [() => lw.list({}), () => lw.watch({ resourceVersion: '9' }, collector().sink)]) {
      await assert.rejects(call, (err: unknown) => err instanceof ApiError && err.code === code && err.reason === reason && err.message === `said ${code}` && err.status?.code === code);
    }
  }
  api.route(PATH, (req, res) => sendStatus(res, 410, 'Expired', 'too old resource version: 1 (50)'));
  await assert.rejects(lw.list({ resourceVersion: '1', resourceVersionMatch: 'Exact' }), isExpired);
});

test('a Retry-After header lands in the Status details, where client-go looks for it', async (t) => {
  // Without retries: the error the caller gets once they are spent (retryAfter.test.ts).
  const { api, cluster } = await setup(t, { maxRetries: 0 });
  api.route(PATH, (req, res) => {
    res.writeHead(429, { 'Retry-After': '7', 'Content-Type': 'text/plain' });
    res.end('slow down');
  });
  await assert.rejects(cluster.listerWatcher(configmaps, { namespace: 'team-a' }).list({}), (err: unknown) => err instanceof ApiError && err.code === 429 && err.reason === 'TooManyRequests' && err.status?.details?.retryAfterSeconds === 7);
});

test('an error answer without a Status body still gets its code and a reason', async (t) => {
  const { api, cluster } = await setup(t);
  api.route(PATH, (req, res) => {
    res.writeHead(503, { 'Content-Type': 'text/html' });
    res.end('<html>upstream down</html>');
  });
  await assert.rejects(cluster.listerWatcher(configmaps, { namespace: 'team-a' }).list({}), (err: unknown) => err instanceof ApiError && err.code === 503 && err.reason === 'ServiceUnavailable' && /upstream down/.test(err.message));
});

test('a watch answered 200 that then sends an ERROR event passes the event through', async (t) => {
  const { api, cluster } = await setup(t);
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 3 (90)', reason: 'Expired', code: 410 };
  api.route(PATH, (req, res) => {
    res.writeHead(200);
    res.end(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
  });
  const c = collector();
  await cluster.listerWatcher(configmaps, { namespace: 'team-a' }).watch({ resourceVersion: '3' }, c.sink);
  assert.equal(await c.closed, undefined);
  assert.deepEqual(c.events, [{ type: 'ERROR', object: status }]);
});

test('stop ends the stream at once: no later event, no close', async (t) => {
  const { api, cluster } = await setup(t);
  let serverRes: ServerResponse | undefined;
  const serverSawClose = new Promise<void>((resolve) =>
    api.route(PATH, (req, res) => {
      serverRes = res;
      res.writeHead(200);
      res.write(eventLine('ADDED', 'a', '1'));
      res.on('close', () => resolve());
    }),
  );
  const events: WatchEvent[] = [];
  let closes = 0;
  let first: () => void = () => {};
  const gotFirst = new Promise<void>((r) => (first = r));
  const handle = await cluster.listerWatcher(configmaps, { namespace: 'team-a' }).watch({}, {
    event: (e) => {
      events.push(e);
      first();
    },
    close: () => closes++,
  });
  await gotFirst;
  handle.stop();
  serverRes?.write(eventLine('MODIFIED', 'a', '2'));
  await serverSawClose;
  assert.equal(events.length, 1);
  assert.equal(closes, 0);
});

test('an abort signal cancels a pending list', async (t) => {
  const { api, cluster } = await setup(t);
  api.route(PATH, () => {
    /* never answers */
  });
  const ac = new AbortController();
  const pending = cluster.listerWatcher(configmaps, { namespace: 'team-a' }).list({}, ac.signal);
  setImmediate(() => ac.abort());
  await assert.rejects(pending, { name: 'AbortError' });
});

test('a cluster-scoped resource ignores the namespace; a named group goes under /apis', async (t) => {
  const { api, cluster } = await setup(t);
  api.route('/api/v1/namespaces', (req, res) => sendJson(res, 200, { metadata: { resourceVersion: '1' }, items: [] }));
  api.route('/apis/apps/v1/deployments', (req, res) => sendJson(res, 200, { metadata: { resourceVersion: '2' }, items: [] }));
  const ns: ApiResource = { ...configmaps, resource: 'namespaces', kind: 'Namespace', namespaced: false };
  assert.equal((await cluster.listerWatcher(ns, { namespace: 'team-a' }).list({})).metadata.resourceVersion, '1');
  const deploy: ApiResource = { ...configmaps, group: 'apps', resource: 'deployments', kind: 'Deployment' };
  assert.equal((await cluster.listerWatcher(deploy).list({})).metadata.resourceVersion, '2');
});

test('listed items without kind and apiVersion (as kube-apiserver lists built-in kinds) get the list\'s, like watched ones', async (t) => {
  const { api, cluster } = await setup(t);
  const bare = (name: string) => {
    const { kind: _k, apiVersion: _a, ...rest } = configMap(name, '40', 'team-a');
    return rest;
  };
  api.route(PATH, (req, res) => sendJson(res, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '42' }, items: [bare('a'), configMap('b', '41', 'team-a')] }));
  const lw = cluster.listerWatcher(configmaps, { namespace: 'team-a' });
  const list = await lw.list({});
  assert.deepEqual(list.items.map((i) => [i.kind, i.apiVersion, i.metadata.name]), [['ConfigMap', 'v1', 'a'], ['ConfigMap', 'v1', 'b']]);
  // An informer's transform sees them typed too.
  const seen: string[] = [];
  await lw.list({}, undefined, (item) => {
    seen.push(`${item.kind}/${item.apiVersion}`);
    return item;
  });
  assert.deepEqual(seen, ['ConfigMap/v1', 'ConfigMap/v1']);
});

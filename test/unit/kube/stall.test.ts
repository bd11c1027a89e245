import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { loadCluster } from '../../../src/kube/cluster.ts';
import { StallError, describeFailure } from '../../../src/kube/errors.ts';
import type { ApiResource } from '../../../src/shared/k8s.ts';
import { configMap, scratchDir, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';

// A server that stops talking does not hang us: a list whose body stops arriving, or a request
// that gets no answer, fails with StallError after the transport's stall timeout.

const configmaps: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
const PATH = '/api/v1/namespaces/default/configmaps';
const STALL_MS = 300;

async function setup(t: { after(fn: () => unknown): void }) {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }), stallTimeoutMs: STALL_MS });
  t.after(async () => {
    cluster.close();
    await api.close();
    cleanup();
  });
  return { api, lw: cluster.listerWatcher(configmaps, { namespace: 'default' }) };
}

/** Fails the test instead of hanging it when `p` never settles. */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)));
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

test('a list whose body stops half way fails with StallError instead of hanging', async (t) => {
  const { api, lw } = await setup(t);
  api.route(PATH, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const body = JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [configMap('a', '9')] });
    res.write(body.slice(0, 40)); // …and nothing more
  });
  const started = performance.now();
  await assert.rejects(within(lw.list({}), 10_000), (err: unknown) => {
    assert.ok(err instanceof StallError, String(err));
    assert.match(err.message, /sent nothing for 300 ms in the middle of the answer to GET \/api\/v1\/namespaces\/default\/configmaps: aborted/);
    assert.equal(describeFailure(err).kind, 'timeout');
    return true;
  });
  assert.ok(performance.now() - started >= STALL_MS - 10);
});

test('a gzip list that stalls fails the same way, and the connection under it is closed', async (t) => {
  const { api, lw } = await setup(t);
  let serverSawClose = false;
  api.route(PATH, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    const zipped = gzipSync(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [configMap('a', '9')] }));
    res.write(zipped.subarray(0, 20));
    res.on('close', () => (serverSawClose = true));
  });
  await assert.rejects(within(lw.list({}), 10_000), StallError);
  await within(
    (async () => {
      while (!serverSawClose) await new Promise((r) => setTimeout(r, 10));
    })(),
    5_000,
  );
});

test('a request that gets no answer at all fails with StallError', async (t) => {
  const { api, lw } = await setup(t);
  api.route(PATH, () => {}); // accepted, never answered
  await assert.rejects(within(lw.list({}), 10_000), (err: unknown) => err instanceof StallError && /in answer to GET/.test(err.message));
});

test('a slow list that keeps sending is not cut off; an accepted watch may stay quiet past the stall timeout', async (t) => {
  const { api, lw } = await setup(t);
  api.route(PATH, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.flushHeaders();
    if (req.url?.includes('watch=true')) {
      setTimeout(() => res.end(`${JSON.stringify({ type: 'ADDED', object: configMap('late', '12') })}\n`), STALL_MS * 3);
      return;
    }
    const body = JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [configMap('a', '9')] });
    // Bytes every 100 ms for a whole second: slow, but never silent for 300 ms.
    let at = 0;
    const step = Math.ceil(body.length / 10);
    const tick = setInterval(() => {
      res.write(body.slice(at, at + step));
      at += step;
      if (at >= body.length) {
        clearInterval(tick);
        res.end();
      }
    }, 100);
  });
  const list = await within(lw.list({}), 10_000);
  assert.equal(list.items[0]?.metadata.name, 'a');
  const names: string[] = [];
  const closed = new Promise<Error | undefined>((resolve) => void lw.watch({ resourceVersion: '9' }, { event: (e) => void names.push(e.object.metadata.name!), close: resolve }));
  assert.equal(await within(closed, 10_000), undefined);
  assert.deepEqual(names, ['late']);
});

test('a list that gets no answer is named in one warning well before the stall timeout, and still waited for', async (t) => {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const warnings: string[] = [];
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }), stallTimeoutMs: 1500, slowAnswerWarnAfterMs: 200, onWarning: (w) => warnings.push(w) });
  t.after(async () => {
    cluster.close();
    await api.close();
    cleanup();
  });
  api.route(PATH, () => {}); // accepted, never answered
  const listing = cluster.listerWatcher(configmaps, { namespace: 'default' }).list({});
  await new Promise((r) => setTimeout(r, 700));
  assert.deepEqual(warnings, [`still waiting for the list of ${PATH} from ${api.url}: nothing after 0.2 s (gives up after 1.5 s)`]);
  await assert.rejects(within(listing, 10_000), StallError);
  assert.equal(warnings.length, 1);
});

test('a thousand requests that get no answer are named in one warning, not a thousand', async (t) => {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const warnings: string[] = [];
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }), stallTimeoutMs: 2000, slowAnswerWarnAfterMs: 1000, onWarning: (w) => warnings.push(w) });
  t.after(async () => {
    cluster.close();
    await api.close();
    cleanup();
  });
  api.route(PATH, () => {}); // accepted, never answered
  const lw = cluster.listerWatcher(configmaps, { namespace: 'default' });
  const lists = Array.from({ length: 1000 }, () => lw.list({}).catch((e: unknown) => e));
  await Promise.all(lists);
  assert.ok(warnings.length >= 1 && warnings.length <= 2, `${warnings.length} warnings:\n${warnings.slice(0, 5).join('\n')}`);
  assert.match(warnings[0]!, /^still waiting for the list of .* nothing after 1 s \(gives up after 2 s\)$/);
});

test('an answer that starts before the warning time gives no warning', async (t) => {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const warnings: string[] = [];
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }), slowAnswerWarnAfterMs: 200, onWarning: (w) => warnings.push(w) });
  t.after(async () => {
    cluster.close();
    await api.close();
    cleanup();
  });
  api.route(PATH, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [] }));
  });
  await cluster.listerWatcher(configmaps, { namespace: 'default' }).list({});
  await new Promise((r) => setTimeout(r, 400));
  assert.deepEqual(warnings, []);
});

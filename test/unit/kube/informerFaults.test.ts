import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSharedInformer } from '../../../src/informer/sharedInformer.ts';
import type { SharedIndexInformer } from '../../../src/informer/sharedInformer.ts';
import { loadCluster } from '../../../src/kube/cluster.ts';
import type { ClusterOptions } from '../../../src/kube/cluster.ts';
import { describeFailure, EventTooLargeError, StallError } from '../../../src/kube/errors.ts';
import type { ApiResource } from '../../../src/shared/k8s.ts';
import { configMap, scratchDir, sendJson, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';

// The informer over our HTTP client against a loopback server that misbehaves the way real ones
// do; each test ends with the cache equal to what the server holds, and the informer still running.

const configmaps: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
const PATH = '/api/v1/namespaces/default/configmaps';

type Obj = Record<string, unknown>;
interface Script {
  list(res: ServerResponse, attempt: number, url: URL): void;
  watch(res: ServerResponse, attempt: number, url: URL, req: IncomingMessage): void;
}

async function start(t: { after(fn: () => unknown): void }, script: Script, options: { cluster?: Partial<ClusterOptions>; watchIdleTimeoutMs?: number } = {}) {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }), ...options.cluster });
  const seen = { lists: [] as { at: number; url: URL }[], watches: [] as { at: number; url: URL }[] };
  api.route(PATH, (req, res, url) => {
    if (url.searchParams.get('watch') === 'true') {
      seen.watches.push({ at: performance.now(), url });
      return script.watch(res, seen.watches.length - 1, url, req);
    }
    seen.lists.push({ at: performance.now(), url });
    script.list(res, seen.lists.length - 1, url);
  });
  const informer = createSharedInformer({ name: 'cm', listerWatcher: cluster.listerWatcher(configmaps, { namespace: 'default' }), random: () => 0, watchIdleTimeoutMs: options.watchIdleTimeoutMs });
  const errors: unknown[] = [];
  informer.onError((err) => void errors.push(err));
  t.after(async () => {
    informer.stop();
    cluster.close();
    await api.close();
    cleanup();
  });
  informer.run();
  return { informer, errors, seen };
}

function sendList(res: ServerResponse, rv: string, items: Obj[]): void {
  sendJson(res, 200, { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: rv }, items });
}

function acceptWatch(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.flushHeaders();
}

const line = (type: string, obj: Obj): string => `${JSON.stringify({ type, object: obj })}\n`;

function cached(informer: SharedIndexInformer): string[] {
  return informer.indexer.list().map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
}

async function until(what: string, cond: () => boolean, ms = 15_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('an event line over the limit closes the watch with a clear error; it resumes from the last good RV and nothing is lost', { timeout: 30_000 }, async (t) => {
  let hugeBytesSent = 0;
  let hugeClosedEarly = false;
  const s = await start(t, {
    list: (res) => sendList(res, '10', [configMap('a', '10')]),
    watch: (res, attempt) => {
      acceptWatch(res);
      if (attempt === 0) {
        res.write(line('ADDED', configMap('b', '11')));
        // One line that never ends: 16 KiB pieces, up to 8 MiB unless the client hangs up first.
        res.write('{"type":"ADDED","object":{"metadata":{"name":"huge","namespace":"default","resourceVersion":"12"},"data":{"k":"');
        const piece = 'x'.repeat(16 * 1024);
        const pump = (): void => {
          if (res.destroyed || hugeBytesSent >= 8 << 20) return;
          hugeBytesSent += piece.length;
          res.write(piece, () => setImmediate(pump));
        };
        res.on('close', () => (hugeClosedEarly = hugeBytesSent < 8 << 20));
        pump();
        return;
      }
      // The resumed watch: the same change, now of a sane size, and one more.
      res.write(line('ADDED', configMap('huge', '12')) + line('ADDED', configMap('c', '13')));
    },
  }, { cluster: { maxEventLength: 64 * 1024 } });
  await until('the cache to hold every object', () => cached(s.informer).length === 4);
  assert.deepEqual(cached(s.informer), ['a@10', 'b@11', 'c@13', 'huge@12']);
  assert.equal(s.seen.watches[1]?.url.searchParams.get('resourceVersion'), '11', 'resumed from the last event delivered');
  assert.equal(s.seen.lists.length, 1, 'no relist needed');
  const tooLarge = s.errors.find((e) => e instanceof EventTooLargeError);
  assert.ok(tooLarge, `errors: ${s.errors.map(String).join('; ')}`);
  assert.match((tooLarge as Error).message, /watch event longer than the 64 KiB limit/);
  await until('the server to see the hang-up', () => hugeClosedEarly);
  assert.ok(hugeBytesSent < 8 << 20, `the client read ${hugeBytesSent} bytes of one line before hanging up`);
});

test('a watch that goes silent (not even a bookmark) is closed with a warning and resumed from the last RV', { timeout: 30_000 }, async (t) => {
  const s = await start(t, {
    list: (res) => sendList(res, '10', [configMap('a', '10')]),
    watch: (res, attempt) => {
      acceptWatch(res);
      if (attempt === 1) res.write(line('ADDED', configMap('b', '11')));
      // attempt 0: accepted, then nothing at all, as a half-open connection behaves
    },
  }, { watchIdleTimeoutMs: 400 });
  await until('the change after the silent watch', () => cached(s.informer).includes('b@11'));
  assert.equal(s.seen.watches[1]?.url.searchParams.get('resourceVersion'), '10');
  assert.equal(s.seen.lists.length, 1, 'resumed, not relisted');
  assert.ok(s.seen.watches[1]!.at - s.seen.watches[0]!.at >= 390, 'not before the deadline');
  assert.ok(s.errors.some((e) => /received nothing, not even a bookmark, for 0\.[45] s, while the server had changes to send \(a dead connection\): resumed from resourceVersion 10/.test(String(e))), s.errors.map(String).join('; '));
});

test('a watch that only sends bookmarks is alive: it is not closed for silence', { timeout: 30_000 }, async (t) => {
  const s = await start(t, {
    list: (res) => sendList(res, '10', []),
    watch: (res, attempt) => {
      acceptWatch(res);
      if (attempt > 0) return;
      let rv = 10;
      const tick = setInterval(() => {
        if (res.destroyed) return clearInterval(tick);
        res.write(line('BOOKMARK', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: String(++rv) } }));
      }, 100);
    },
  }, { watchIdleTimeoutMs: 400 });
  await until('a few bookmarks', () => Number(s.informer.lastSyncResourceVersion()) >= 22);
  assert.equal(s.seen.watches.length, 1);
  assert.deepEqual(s.errors, []);
});

test('a list whose body stalls is aborted with a warning and retried after a backoff', { timeout: 30_000 }, async (t) => {
  const s = await start(t, {
    list: (res, attempt) => {
      if (attempt > 0) return sendList(res, '10', [configMap('a', '10'), configMap('b', '10')]);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"10"},"items":[');
    },
    watch: (res) => acceptWatch(res),
  }, { cluster: { stallTimeoutMs: 300 } });
  assert.equal(await s.informer.waitForSync(), true);
  assert.deepEqual(cached(s.informer), ['a@10', 'b@10']);
  assert.ok(s.errors.some((e) => e instanceof StallError), s.errors.map(String).join('; '));
  // 300 ms of silence, then the reflector's first backoff (0.8 s here).
  assert.ok(s.seen.lists[1]!.at - s.seen.lists[0]!.at >= 1050, `${s.seen.lists[1]!.at - s.seen.lists[0]!.at} ms`);
});

test('after the client retries run out, the reflector backs off no less than the Retry-After', { timeout: 30_000 }, async (t) => {
  const s = await start(t, {
    list: (res, attempt) => {
      if (attempt > 0) return sendList(res, '10', [configMap('a', '10')]);
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '3' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 429, reason: 'TooManyRequests', message: 'too many requests' }));
    },
    watch: (res) => acceptWatch(res),
  }, { cluster: { maxRetries: 0 } });
  assert.equal(await s.informer.waitForSync(), true);
  const gap = s.seen.lists[1]!.at - s.seen.lists[0]!.at;
  assert.ok(gap >= 2990, `retried after ${gap} ms; the server asked for 3 s`);
});

for (const via of ['ERROR event', 'HTTP 504'] as const) {
  test(`a server whose resourceVersion is behind the cache's (${via}: Too large resource version) gets a consistent relist`, { timeout: 30_000 }, async (t) => {
    const tooLarge = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 504, reason: 'Timeout', message: 'Too large resource version: 1000, current: 50', details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 } };
    const s = await start(t, {
      // Before the restart: three objects at RV 1000. After it, history lost: RVs restarted.
      list: (res, attempt) => (attempt === 0 ? sendList(res, '1000', [configMap('a', '990'), configMap('b', '995'), configMap('c', '1000')]) : sendList(res, '50', [configMap('a', '40'), configMap('d', '50')])),
      watch: (res, attempt, url) => {
        if (url.searchParams.get('resourceVersion') === '1000') {
          if (via === 'HTTP 504') {
            // As kube-apiserver and the simulated cluster send it: with Retry-After: 1.
            res.writeHead(504, { 'Content-Type': 'application/json', 'Retry-After': '1' });
            return void res.end(JSON.stringify(tooLarge));
          }
          acceptWatch(res);
          return void res.end(line('ERROR', tooLarge));
        }
        acceptWatch(res);
        if (attempt < 3) res.write(line('ADDED', configMap('e', '51')));
      },
    });
    await until('the cache to match the restarted server', () => cached(s.informer).join() === 'a@40,d@50,e@51');
    assert.equal(s.seen.lists.length, 2);
    assert.equal(s.seen.lists[1]!.url.searchParams.has('resourceVersion'), false, 'the relist is a consistent read');
    assert.equal(s.seen.watches.filter((w) => w.url.searchParams.get('resourceVersion') === '1000').length, 1, 'relisted at once, not after retries');
    assert.equal(s.seen.watches.at(-1)!.url.searchParams.get('resourceVersion'), '50');
    assert.ok(s.errors.some((e) => /may have restarted without its history; relisting/.test(String(e))), s.errors.map(String).join('; '));
  });
}

// kube-apiserver shutting down (a restart, an upgrade) cuts its open watches and lists mid-body;
// Node says only "aborted". The warning a user reads must say what was cut, and by whom.
test('a watch the server cuts mid-stream is named as such and resumed from the last event', { timeout: 30_000 }, async (t) => {
  const s = await start(t, {
    list: (res) => sendList(res, '10', [configMap('a', '10')]),
    watch: (res, attempt) => {
      acceptWatch(res);
      if (attempt > 0) return;
      res.write(line('ADDED', configMap('b', '11')));
      setTimeout(() => res.socket?.destroy(), 100);
    },
  });
  await until('the second watch', () => s.seen.watches.length === 2);
  assert.equal(s.seen.watches[1]?.url.searchParams.get('resourceVersion'), '11', 'resumed from the last event delivered');
  assert.equal(s.seen.lists.length, 1, 'no relist needed');
  const said = s.errors.map((e) => describeFailure(e).message);
  assert.equal(said.length, 1, said.join('; '));
  assert.match(said[0]!, /^the connection to http:\/\/127\.0\.0\.1:\d+ closed in the middle of the watch of \/api\/v1\/namespaces\/default\/configmaps: the server restarted, or a proxy cut it$/);
});

test('a list the server cuts mid-body is named as such and listed again', { timeout: 30_000 }, async (t) => {
  const s = await start(t, {
    list: (res, attempt) => {
      if (attempt > 0) return sendList(res, '10', [configMap('a', '10')]);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"10"},"items":[');
      setTimeout(() => res.socket?.destroy(), 100);
    },
    watch: (res) => acceptWatch(res),
  });
  assert.equal(await s.informer.waitForSync(), true);
  assert.deepEqual(cached(s.informer), ['a@10']);
  const said = s.errors.map((e) => describeFailure(e).message);
  assert.equal(said.length, 1, said.join('; '));
  assert.match(said[0]!, /^the connection to http:\/\/127\.0\.0\.1:\d+ closed in the middle of the answer to GET \/api\/v1\/namespaces\/default\/configmaps: the server restarted, or a proxy cut it$/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { loadCluster } from '../../../src/kube/cluster.ts';
import type { ClusterOptions } from '../../../src/kube/cluster.ts';
import type { RetryNotice } from '../../../src/kube/transport.ts';
import { ApiError } from '../../../src/shared/apiError.ts';
import type { ApiResource, WatchEvent } from '../../../src/shared/k8s.ts';
import { configMap, scratchDir, sendJson, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';

// A 429 or 5xx that says when to come back (Retry-After) is sent again after that long, as
// client-go's rest client does (checkWait, up to 10 retries); anything else fails at once.

const configmaps: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
const PATH = '/api/v1/namespaces/default/configmaps';

type T = { after(fn: () => unknown): void };

async function setup(t: T, options: Partial<ClusterOptions> = {}) {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const retries: RetryNotice[] = [];
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }), onRetry: (r) => void retries.push(r), ...options });
  t.after(async () => {
    cluster.close();
    await api.close();
    cleanup();
  });
  const times: number[] = [];
  return { api, cluster, retries, times, lw: cluster.listerWatcher(configmaps, { namespace: 'default' }) };
}

function refuse(res: ServerResponse, code: number, reason: string, retryAfter?: string): void {
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason, message: `${reason} (try later)` });
  res.writeHead(code, { 'Content-Type': 'application/json', ...(retryAfter === undefined ? {} : { 'Retry-After': retryAfter }) });
  res.end(body);
}

const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items: [configMap('a', '7')] };

test('a list answered 429 with Retry-After: 1 is sent again after a second, twice, then succeeds', async (t) => {
  const s = await setup(t);
  s.api.route(PATH, (req, res) => {
    s.times.push(performance.now());
    if (s.times.length <= 2) refuse(res, 429, 'TooManyRequests', '1');
    else sendJson(res, 200, list);
  });
  const got = await s.lw.list({ resourceVersion: '0' });
  assert.equal(got.items[0]?.metadata.name, 'a');
  assert.equal(s.times.length, 3);
  // Generous bound: never earlier than the server asked (timers may fire a little late, never early).
  assert.ok(s.times[1]! - s.times[0]! >= 990, `waited ${s.times[1]! - s.times[0]!} ms`);
  assert.ok(s.times[2]! - s.times[1]! >= 990, `waited ${s.times[2]! - s.times[1]!} ms`);
  assert.deepEqual(s.retries.map((r) => [r.code, r.reason, r.waitMs, r.attempt, r.maxRetries]), [[429, 'TooManyRequests', 1000, 1, 10], [429, 'TooManyRequests', 1000, 2, 10]]);
});

test('a 503 with Retry-After is retried; a 500 without one, or a 404 with one, fails at once', async (t) => {
  const s = await setup(t);
  let n = 0;
  s.api.route(PATH, (req, res) => (++n === 1 ? refuse(res, 503, 'ServiceUnavailable', '0') : sendJson(res, 200, list)));
  assert.equal((await s.lw.list({})).items.length, 1);
  assert.equal(n, 2);

  for (const [code, reason, header] of [[500, 'InternalError', undefined], [404, 'NotFound', '0'], [429, 'TooManyRequests', 'Wed, 21 Oct 2015 07:28:00 GMT']] as const) {
    let calls = 0;
    s.api.route(PATH, (req, res) => (calls++, refuse(res, code, reason, header)));
    await assert.rejects(s.lw.list({}), (err: unknown) => err instanceof ApiError && err.code === code);
    assert.equal(calls, 1, `${code} ${header ?? ''}`);
  }
});

test('after maxRetries the error is thrown, carrying the Retry-After for the caller to back off by', async (t) => {
  const s = await setup(t, { maxRetries: 2 });
  let calls = 0;
  s.api.route(PATH, (req, res) => (calls++, refuse(res, 429, 'TooManyRequests', '0')));
  await assert.rejects(s.lw.list({}), (err: unknown) => err instanceof ApiError && err.code === 429 && err.status?.details?.retryAfterSeconds === 0);
  assert.equal(calls, 3);
});

test('a watch refused with 429 and Retry-After is opened once the wait is over', async (t) => {
  const s = await setup(t);
  s.api.route(PATH, (req, res) => {
    s.times.push(performance.now());
    if (s.times.length === 1) return refuse(res, 429, 'TooManyRequests', '1');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(`${JSON.stringify({ type: 'ADDED', object: configMap('b', '8') })}\n`);
  });
  const events: WatchEvent[] = [];
  const closed = new Promise<Error | undefined>((resolve) => void s.lw.watch({ resourceVersion: '7' }, { event: (e) => void events.push(e), close: resolve }));
  assert.equal(await closed, undefined);
  assert.deepEqual(events.map((e) => e.object.metadata.name), ['b']);
  assert.ok(s.times[1]! - s.times[0]! >= 990);
});

test('stopping during a Retry-After wait cancels the request', async (t) => {
  const s = await setup(t);
  let calls = 0;
  s.api.route(PATH, (req, res) => (calls++, refuse(res, 429, 'TooManyRequests', '30')));
  const abort = new AbortController();
  const pending = s.lw.list({}, abort.signal);
  while (s.retries.length === 0) await new Promise((r) => setTimeout(r, 10));
  abort.abort();
  await assert.rejects(pending, (err: unknown) => err instanceof Error && err.name === 'AbortError');
  assert.equal(calls, 1);
});

test('Retry-After: 999999 is honoured for 30 s at most (the notice says what was asked)', async (t) => {
  const s = await setup(t);
  let calls = 0;
  s.api.route(PATH, (req, res) => (calls++, refuse(res, 429, 'TooManyRequests', '999999')));
  const abort = new AbortController();
  const pending = s.lw.list({}, abort.signal);
  while (s.retries.length === 0) await new Promise((r) => setTimeout(r, 10));
  abort.abort();
  await assert.rejects(pending, (err: unknown) => err instanceof Error && err.name === 'AbortError');
  assert.deepEqual(s.retries.map((r) => [r.waitMs, r.askedMs]), [[30_000, 999_999_000]]);
  assert.equal(calls, 1);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { healthAnswer } from '../../../../src/sim/server/health.ts';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();

const q = (query = ''): URLSearchParams => new URLSearchParams(query);
const healthy = { persistence: undefined, heap: undefined };
const disk = (persistence: string) => ({ persistence, heap: undefined });

test('a healthy endpoint says ok, and lists its checks when asked to be verbose', () => {
  assert.deepEqual(healthAnswer('livez', '', q(), healthy), { status: 200, text: 'ok' });
  const ready = healthAnswer('readyz', '', q('verbose'), healthy);
  assert.equal(ready.status, 200);
  assert.match(ready.text, /^\[\+\]ping ok\n\[\+\]log ok\n\[\+\]etcd ok\n\[\+\]etcd-readiness ok\n\[\+\]informer-sync ok\n\[\+\]poststarthook\/start-kube-apiserver-admission-initializer ok\n/);
  assert.match(ready.text, /\n\[\+\]poststarthook\/apiservice-discovery-controller ok\n\[\+\]persistence ok\n\[\+\]heap ok\n\[\+\]shutdown ok\nreadyz check passed\n$/);
  const health = healthAnswer('healthz', '', q('verbose=1'), healthy).text;
  assert.match(health, /^\[\+\]ping ok\n\[\+\]log ok\n\[\+\]etcd ok\n\[\+\]poststarthook\/start-kube-apiserver-admission-initializer ok\n/);
  assert.match(health, /\[\+\]autoregister-completion ok\n[^]*\[\+\]poststarthook\/apiservice-discovery-controller ok\nhealthz check passed\n$/);
});

test('over HTTP, each endpoint lists every check the e2e health spec requires of kube-apiserver v1.28', async () => {
  const required = [
    'ping', 'log', 'etcd', 'poststarthook/start-kube-apiserver-admission-initializer', 'poststarthook/generic-apiserver-start-informers',
    'poststarthook/start-apiextensions-informers', 'poststarthook/start-apiextensions-controllers', 'poststarthook/crd-informer-synced',
    'poststarthook/bootstrap-controller', 'poststarthook/start-system-namespaces-controller', 'poststarthook/start-service-ip-repair-controllers',
    'poststarthook/scheduling/bootstrap-system-priority-classes', 'poststarthook/start-cluster-authentication-info-controller',
    'poststarthook/start-kube-aggregator-informers', 'poststarthook/apiservice-registration-controller', 'poststarthook/apiservice-status-available-controller',
    'poststarthook/kube-apiserver-autoregistration', 'autoregister-completion', 'poststarthook/apiservice-openapi-controller',
  ];
  for (const endpoint of ['healthz', 'livez', 'readyz']) {
    const answer = await call(suite.server, 'GET', `/${endpoint}?verbose=1`);
    assert.equal(answer.status, 200, endpoint);
    const lines = new Set(answer.body.split('\n'));
    const wanted = endpoint === 'readyz' ? [...required, 'informer-sync'] : required;
    assert.deepEqual(wanted.filter((c) => !lines.has(`[+]${c} ok`)), [], endpoint);
  }
});

test('a failing check makes readiness fail with its reason, never liveness', () => {
  const full = 'cannot write the journal:\n  EFBIG';
  const ready = healthAnswer('readyz', '', q(), disk(full));
  assert.equal(ready.status, 500);
  assert.match(ready.text, /^\[\+\]ping ok\n[^]*\[-\]persistence failed: cannot write the journal: EFBIG\n[^]*readyz check failed\n$/);
  assert.deepEqual(healthAnswer('livez', '', q(), disk(full)), { status: 200, text: 'ok' });
  assert.deepEqual(healthAnswer('readyz', 'persistence', q(), disk(full)), { status: 500, text: 'internal server error: cannot write the journal: EFBIG\n' });
  assert.deepEqual(healthAnswer('readyz', 'ping', q(), disk(full)), { status: 200, text: 'ok' });
});

test('excluded checks pass, unknown exclusions are warned of, unknown checks are not found', () => {
  const answer = healthAnswer('readyz', '', q('exclude=persistence&exclude=nope,etcd&verbose'), disk('disk full'));
  assert.equal(answer.status, 200);
  assert.match(answer.text, /\[\+\]persistence excluded: ok\n/);
  assert.match(answer.text, /\[\+\]etcd excluded: ok\n/);
  assert.match(answer.text, /warn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n$/);
  assert.equal(healthAnswer('readyz', '', q('exclude=persistence'), disk('disk full')).text, 'ok');
  assert.deepEqual(healthAnswer('livez', 'persistence', q(), healthy), { status: 404, text: '404 page not found\n' });
});

test('a heap past its quota makes readiness fail with its reason', () => {
  const heap = 'etcdserver: mvcc: database space exceeded: the heap holds 3100 MB of its 4096 MB limit';
  const ready = healthAnswer('readyz', '', q(), { persistence: undefined, heap });
  assert.equal(ready.status, 500);
  assert.match(ready.text, /\[-\]heap failed: etcdserver: mvcc: database space exceeded: the heap holds 3100 MB/);
  assert.deepEqual(healthAnswer('livez', '', q(), { persistence: undefined, heap }), { status: 200, text: 'ok' });
});

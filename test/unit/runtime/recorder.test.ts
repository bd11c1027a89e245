import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReconcileRecorder } from '../../../src/runtime/recorder.ts';
import { CacheHistory } from '../../../src/runtime/cacheHistory.ts';
import type { ReconcileRecord } from '../../../src/controllerProtocol/records.ts';

function record(seq: number, cacheSeq: number): ReconcileRecord {
  return {
    seq,
    reconcileId: `r${seq}`,
    controller: 'c',
    worker: 1,
    forKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    key: 'default/a',
    request: { namespace: 'default', name: 'a' },
    trigger: [],
    cacheResourceVersion: String(cacheSeq),
    cacheSeq,
    startedAt: 0,
    writes: [],
    logs: [],
  };
}

test('records are found by seq, and stepping back and forth walks start order', () => {
  const r = new ReconcileRecorder();
  for (let i = 1; i <= 3; i++) r.start(record(i, i));
  assert.equal(r.previous(3)?.seq, 2);
  assert.equal(r.next(1)?.seq, 2);
  assert.equal(r.previous(1), undefined);
  r.end({ reconcileId: 'r2', seq: 2, durationMs: 4, writes: [], outcome: { kind: 'success', result: {} }, decision: { action: 'forget' } });
  assert.equal(r.bySeq(2)?.durationMs, 4);
});

test('a reconcile reported after one that started later is still found by its own seq', () => {
  // A Go manager's two controllers: seq 2 (secrets) reaches the recorder before seq 1 (configs).
  const r = new ReconcileRecorder();
  r.start({ ...record(2, 2), controller: 'secrets' });
  r.start({ ...record(1, 1), controller: 'configs' });
  r.start({ ...record(3, 3), controller: 'configs' });
  assert.equal(r.bySeq(1)?.controller, 'configs');
  assert.equal(r.bySeq(2)?.controller, 'secrets');
  assert.equal(r.previous(3)?.seq, 2);
  assert.equal(r.previous(2)?.seq, 1);
});

test('the recorder keeps only its capacity, dropping the oldest', () => {
  const r = new ReconcileRecorder(2);
  for (let i = 1; i <= 3; i++) r.start(record(i, i));
  assert.equal(r.size, 2);
  assert.equal(r.bySeq(1), undefined);
  assert.equal(r.bySeq(3)?.seq, 3);
  assert.equal(r.get('r1'), undefined);
});

test('the cache history reads the cache as of an earlier point', () => {
  const h = new CacheHistory();
  const cm = (rv: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', resourceVersion: rv, labels: { app: 'x' } }, data: { v } });
  h.apply({ seq: 1, type: 'ADDED', apiVersion: 'v1', kind: 'ConfigMap', key: 'default/a', resourceVersion: '10', object: cm('10', 'one') });
  h.apply({ seq: 2, type: 'MODIFIED', apiVersion: 'v1', kind: 'ConfigMap', key: 'default/a', resourceVersion: '11', object: cm('11', 'two') });
  h.apply({ seq: 3, type: 'DELETED', apiVersion: 'v1', kind: 'ConfigMap', key: 'default/a', resourceVersion: '12', object: cm('11', 'two') });
  assert.equal(h.at(1).get('ConfigMap', 'default', 'a')?.metadata.resourceVersion, '10');
  assert.equal(h.at(2).get('configmap', 'default', 'a')?.metadata.resourceVersion, '11');
  assert.equal(h.at(3).get('ConfigMap', 'default', 'a'), undefined);
  assert.equal(h.at(0).list('ConfigMap').length, 0);
  assert.equal(h.at(2).list('ConfigMap', { labelSelector: 'app=x' }).length, 1);
  assert.equal(h.at(2).list('ConfigMap', { labelSelector: 'app in (y)' }).length, 0);
});

test('the cache history reads label selectors with the API server grammar: numeric comparisons, and its error for a bad key', () => {
  const h = new CacheHistory();
  const cm = (name: string, tier: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', resourceVersion: '1', labels: { tier } } });
  h.apply({ seq: 1, type: 'ADDED', apiVersion: 'v1', kind: 'ConfigMap', key: 'default/low', resourceVersion: '1', object: cm('low', '1') });
  h.apply({ seq: 2, type: 'ADDED', apiVersion: 'v1', kind: 'ConfigMap', key: 'default/high', resourceVersion: '2', object: cm('high', '3') });
  assert.deepEqual(h.at(2).list('ConfigMap', { labelSelector: 'tier>2' }).map((o) => o.metadata.name), ['high']);
  assert.deepEqual(h.at(2).list('ConfigMap', { labelSelector: { tier: '1' } }).map((o) => o.metadata.name), ['low']);
  assert.throws(() => h.at(2).list('ConfigMap', { labelSelector: 'bad key=x' }), { name: 'ApiError', message: /unable to parse requirement/ });
});

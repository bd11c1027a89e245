import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { CM, configMap, newCluster, record, tick } from '../store/helpers.ts';

test('dropWatches ends every open watch cleanly (optionally one resource only)', async () => {
  const { cluster } = newCluster();
  const a = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  const ns = record(cluster, { group: '', version: 'v1', resource: 'namespaces' }, { resourceVersion: String(cluster.resourceVersion) });
  assert.equal(cluster.faults.dropWatches('configmaps'), 1);
  await tick();
  assert.equal(a.closed, 'dropped');
  assert.equal(ns.closed, undefined);
  assert.equal(cluster.faults.dropWatches(), 1);
  await tick();
  assert.equal(ns.closed, 'dropped');
});

test('compact: a resume from before the compaction gets 410 in the stream', async () => {
  const { cluster } = newCluster();
  const from = cluster.resourceVersion;
  cluster.create(CM, 'default', configMap('a'));
  const compacted = cluster.faults.compact('now');
  assert.equal(compacted, cluster.resourceVersion);
  const w = record(cluster, CM, { resourceVersion: String(from) });
  await tick();
  assert.equal(w.events[0]?.type, 'ERROR');
  assert.match((w.events[0]?.object as unknown as { message: string }).message, new RegExp(`too old resource version: ${from} \\(${compacted}\\)`));
});

test('delayEvents holds each event back by the delay on the clock', async () => {
  const { cluster, clock } = newCluster();
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  cluster.faults.delayEvents(500);
  cluster.create(CM, 'default', configMap('a'));
  await tick();
  assert.equal(w.events.length, 0);
  clock.step(499);
  await tick();
  assert.equal(w.events.length, 0);
  clock.step(1);
  await tick();
  assert.equal(w.events.length, 1);
  cluster.faults.delayEvents(0);
  cluster.create(CM, 'default', configMap('b'));
  await tick();
  assert.equal(w.events.length, 2);
});

test('withheld events are released in order', async () => {
  const { cluster } = newCluster();
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  cluster.faults.withholdEvents();
  for (const n of ['a', 'b', 'c']) cluster.create(CM, 'default', configMap(n));
  await tick();
  assert.equal(w.events.length, 0);
  assert.equal(cluster.faults.state().eventsWithheld, true);
  cluster.faults.releaseEvents();
  await tick();
  assert.deepEqual(w.events.map((e) => e.object.metadata.name), ['a', 'b', 'c']);
});

test('withheld bookmarks are not sent until released', async () => {
  const { cluster, clock } = newCluster({ bookmarkIntervalMs: 1000 });
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion), allowWatchBookmarks: true });
  cluster.faults.withholdBookmarks();
  clock.step(5000);
  await tick();
  assert.equal(w.events.length, 0);
  cluster.faults.releaseBookmarks();
  clock.step(1000);
  await tick();
  assert.deepEqual(w.events.map((e) => e.type), ['BOOKMARK']);
});

test('conflictNextUpdate makes exactly the next write of that object a 409', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  cluster.create(CM, 'default', configMap('b'));
  cluster.faults.conflictNextUpdate(CM, 'default', 'a');
  assert.deepEqual(cluster.faults.state().pendingConflicts, ['configmaps/default/a']);
  cluster.patch(CM, 'default', 'b', 'merge', { data: { k: 'other objects are fine' } });
  assert.throws(() => cluster.patch(CM, 'default', 'a', 'merge', { data: { k: '2' } }), (e: unknown) => e instanceof ApiError && e.code === 409 && e.reason === 'Conflict');
  cluster.patch(CM, 'default', 'a', 'merge', { data: { k: '2' } });
  assert.deepEqual(cluster.faults.state().pendingConflicts, []);
});

test('restart ends all watches; RVs keep rising and resumes still work unless history is dropped', async () => {
  const { cluster } = newCluster();
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  cluster.create(CM, 'default', configMap('a'));
  const before = cluster.resourceVersion;
  cluster.faults.restart();
  await tick();
  assert.equal(w.closed, 'restart');
  assert.equal(cluster.openWatchCount(), 0);
  const resumed = record(cluster, CM, { resourceVersion: String(before - 1) });
  await tick();
  assert.equal(resumed.events[0]?.type, 'ADDED');
  cluster.restart({ dropHistory: true });
  const stale = record(cluster, CM, { resourceVersion: String(before - 1) });
  await tick();
  assert.equal(stale.events[0]?.type, 'ERROR');
  assert.ok(cluster.create(CM, 'default', configMap('b')).resourceVersion > before);
});

test('HTTP fault settings are kept for the server layer and reported in state', () => {
  const { cluster } = newCluster();
  let changes = 0;
  cluster.faults.onDidChange(() => changes++);
  cluster.faults.setHttp({ errorRate: 0.5, errorCode: 429 });
  assert.deepEqual(cluster.faults.state().http, { errorRate: 0.5, errorCode: 429, retryAfterSeconds: 1, latencyMs: 0, pathFilter: '' });
  assert.equal(changes, 1);
});

test('stats report objects, window and watchers per resource', () => {
  const { cluster } = newCluster({ watchCacheSize: 2 });
  for (const n of ['a', 'b', 'c']) cluster.create(CM, 'default', configMap(n));
  record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  const cm = cluster.stats().resources.find((r) => r.resource === 'configmaps');
  assert.deepEqual(cm, { group: '', resource: 'configmaps', objects: 3, historyEvents: 2, oldestResourceVersion: cluster.resourceVersion - 2, watchers: 1 });
  assert.equal(cluster.stats().watchCacheSize, 2);
});

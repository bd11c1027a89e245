import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { INITIAL_EVENTS_END_ANNOTATION } from '../../../../src/shared/k8s.ts';
import { CM, NS, configMap, newCluster, record, tick } from './helpers.ts';

test('a watch from RV N delivers every change after N, in order, asynchronously', async () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  const from = cluster.resourceVersion;
  cluster.create(CM, 'default', configMap('b'));
  cluster.patch(CM, 'default', 'a', 'merge', { data: { k: 'w' } });
  const w = record(cluster, CM, { resourceVersion: String(from) });
  cluster.delete(CM, 'default', 'b');
  assert.equal(w.events.length, 0, 'nothing is delivered synchronously');
  await tick();
  assert.deepEqual(w.summary(), [`ADDED b@${from + 1}`, `MODIFIED a@${from + 2}`, `DELETED b@${from + 3}`]);
});

test('a watch from RV 0 or unset starts with synthetic ADDED for current objects, then changes', async () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  cluster.create(CM, 'default', configMap('b'));
  for (const resourceVersion of ['0', undefined]) {
    const w = record(cluster, CM, { resourceVersion });
    await tick();
    assert.deepEqual(w.events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED a', 'ADDED b']);
    w.handle.stop();
  }
});

test('a watch from an RV older than the window gets one ERROR 410 Expired event and closes', async () => {
  const { cluster } = newCluster({ watchCacheSize: 2 });
  const old = cluster.resourceVersion;
  for (let i = 0; i < 4; i++) cluster.create(CM, 'default', configMap(`cm-${i}`));
  const w = record(cluster, CM, { resourceVersion: String(old) });
  await tick();
  assert.equal(w.events.length, 1);
  const e = w.events[0];
  assert.equal(e?.type, 'ERROR');
  const status = e?.object as unknown as { kind: string; code: number; reason: string; message: string };
  assert.equal(status.kind, 'Status');
  assert.equal(status.code, 410);
  assert.equal(status.reason, 'Expired');
  assert.match(status.message, new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`));
  assert.equal(w.closed, 'expired');
});

test('watching from the RV a compaction left still works; one below it is expired', async () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  const compacted = cluster.compact();
  cluster.create(CM, 'default', configMap('b'));
  const ok = record(cluster, CM, { resourceVersion: String(compacted) });
  const old = record(cluster, CM, { resourceVersion: String(compacted - 1) });
  await tick();
  assert.deepEqual(ok.summary(), [`ADDED b@${compacted + 1}`]);
  assert.equal(old.events[0]?.type, 'ERROR');
});

test('bookmarks arrive every interval and carry only kind, apiVersion and the current RV', async () => {
  const { cluster, clock } = newCluster({ bookmarkIntervalMs: 60_000 });
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion), allowWatchBookmarks: true });
  clock.step(59_999);
  await tick();
  assert.equal(w.events.length, 0);
  cluster.create(CM, 'default', configMap('a'));
  clock.step(1);
  await tick();
  assert.deepEqual(w.events.map((e) => e.type), ['ADDED', 'BOOKMARK']);
  assert.deepEqual(w.events[1]?.object, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: String(cluster.resourceVersion) } });
  clock.step(60_000);
  await tick();
  assert.equal(w.events.filter((e) => e.type === 'BOOKMARK').length, 2);
});

test('no bookmarks without allowWatchBookmarks', async () => {
  const { cluster, clock } = newCluster({ bookmarkIntervalMs: 1000 });
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  clock.step(10_000);
  await tick();
  assert.equal(w.events.length, 0);
});

test('timeoutSeconds ends the stream cleanly, with a bookmark shortly before', async () => {
  const { cluster, clock } = newCluster();
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion), allowWatchBookmarks: true, timeoutSeconds: 10 });
  clock.step(8_000);
  await tick();
  assert.deepEqual(w.events.map((e) => e.type), ['BOOKMARK']);
  assert.equal(w.closed, undefined);
  clock.step(2_000);
  await tick();
  assert.equal(w.closed, 'timeout');
  cluster.create(CM, 'default', configMap('late'));
  await tick();
  assert.equal(w.events.length, 1);
  assert.equal(cluster.openWatchCount(), 0);
});

test('a streaming list sends initial ADDED events then a bookmark annotated initial-events-end', async () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  cluster.create(CM, 'default', configMap('b'));
  const rv = cluster.resourceVersion;
  const w = record(cluster, CM, { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
  cluster.create(CM, 'default', configMap('c'));
  await tick();
  assert.deepEqual(w.events.map((e) => e.type), ['ADDED', 'ADDED', 'BOOKMARK', 'ADDED']);
  const bookmark = w.events[2]?.object;
  assert.equal(bookmark?.metadata.resourceVersion, String(rv));
  assert.deepEqual(bookmark?.metadata.annotations, { [INITIAL_EVENTS_END_ANNOTATION]: 'true' });
});

test('sendInitialEvents without resourceVersionMatch=NotOlderThan is 422 Invalid', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.watch(CM, { sendInitialEvents: true, allowWatchBookmarks: true }, { event: () => {}, close: () => {} }),
    (e: unknown) => e instanceof ApiError && e.code === 422);
});

test('an object that stops matching the selector is seen as DELETED; one that starts matching as ADDED', async () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a', { app: 'web' }));
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion), labelSelector: 'app=web' });
  cluster.patch(CM, 'default', 'a', 'merge', { metadata: { labels: { app: 'db' } } });
  const leftAt = cluster.resourceVersion;
  cluster.patch(CM, 'default', 'a', 'merge', { data: { k: 'ignored while not matching' } });
  cluster.patch(CM, 'default', 'a', 'merge', { metadata: { labels: { app: 'web' } } });
  cluster.patch(CM, 'default', 'a', 'merge', { data: { k: 'seen' } });
  cluster.create(CM, 'default', configMap('other', { app: 'db' }));
  await tick();
  assert.deepEqual(w.events.map((e) => e.type), ['DELETED', 'ADDED', 'MODIFIED']);
  // The DELETED carries the last matching state at the RV of the change, so RVs never go backwards.
  assert.equal(w.events[0]?.object.metadata.labels?.app, 'web');
  assert.equal(w.events[0]?.object.metadata.resourceVersion, String(leftAt));
});

test('namespace-scoped watches see only their namespace', async () => {
  const { cluster } = newCluster();
  cluster.create(NS, '', { metadata: { name: 'team' } });
  const w = record(cluster, CM, { namespace: 'team', resourceVersion: String(cluster.resourceVersion) });
  cluster.create(CM, 'default', configMap('a'));
  cluster.create(CM, 'team', configMap('b'));
  await tick();
  assert.deepEqual(w.events.map((e) => e.object.metadata.name), ['b']);
});

test('after stop no event is delivered and close is not called', async () => {
  const { cluster } = newCluster();
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  cluster.create(CM, 'default', configMap('queued'));
  w.handle.stop();
  cluster.create(CM, 'default', configMap('after'));
  await tick();
  assert.equal(w.events.length, 0);
  assert.equal(w.closed, undefined);
});

test('watch lines are serialized once and shared by every watcher', async () => {
  const { cluster } = newCluster();
  const a = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  const b = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  cluster.create(CM, 'default', configMap('x'));
  await tick();
  assert.equal(a.events[0], b.events[0], 'the same event object');
  assert.equal(a.events[0]?.line(), b.events[0]?.line());
  assert.deepEqual(JSON.parse(a.events[0]?.line() ?? ''), { type: 'ADDED', object: a.events[0]?.object });
});

test('a listener that writes while handling an event still sees events in order', async () => {
  const { cluster } = newCluster();
  const seen: string[] = [];
  cluster.watch(CM, { resourceVersion: String(cluster.resourceVersion) }, {
    event: (e) => {
      seen.push(`${e.type} ${e.object.metadata.name}`);
      if (e.object.metadata.name === 'a') cluster.create(CM, 'default', configMap('from-handler'));
    },
    close: () => {},
  });
  cluster.create(CM, 'default', configMap('a'));
  cluster.create(CM, 'default', configMap('b'));
  await tick();
  assert.deepEqual(seen, ['ADDED a', 'ADDED b', 'ADDED from-handler']);
});

test('a long backlog is delivered in order in batches that yield to I/O between them', async () => {
  const { cluster } = newCluster({ watchCacheSize: 5000 });
  const from = cluster.resourceVersion;
  for (let i = 0; i < 2500; i++) cluster.create(CM, 'default', configMap(`cm-${i}`));
  const w = record(cluster, CM, { resourceVersion: String(from) });
  await tick();
  assert.equal(w.events.length, 1000, 'one batch per turn');
  await new Promise((r) => setImmediate(r));
  await tick();
  assert.equal(w.events.length, 2000);
  await new Promise((r) => setImmediate(r));
  await tick();
  assert.equal(w.events.length, 2500);
  assert.deepEqual(w.events.map((e) => Number(e.object.metadata.resourceVersion)), Array.from({ length: 2500 }, (_, i) => from + 1 + i));
});

test('pause holds delivery (events keep queueing in order) until resume', async () => {
  const { cluster } = newCluster();
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  w.handle.pause();
  cluster.create(CM, 'default', configMap('a'));
  cluster.create(CM, 'default', configMap('b'));
  await tick();
  assert.equal(w.events.length, 0);
  w.handle.resume();
  await tick();
  assert.deepEqual(w.events.map((e) => e.object.metadata.name), ['a', 'b']);
});

test('a watch from an RV the store has not reached is refused with 504 Too large resource version', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.watch(CM, { resourceVersion: String(cluster.resourceVersion + 5) }, { event: () => {}, close: () => {} }),
    (e: unknown) => e instanceof ApiError && e.code === 504 && /Too large resource version/.test(e.message));
});

test('a paused watch that is dropped still hears its close', async () => {
  const { cluster } = newCluster();
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  w.handle.pause();
  cluster.create(CM, 'default', configMap('a'));
  cluster.faults.dropWatches();
  await tick();
  assert.equal(w.events.length, 0);
  assert.equal(w.closed, 'dropped');
});

test('resourceVersionMatch on a plain watch is 422, as the server forbids it without sendInitialEvents', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.watch(CM, { resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }, { event: () => {}, close: () => {} }),
    (e: unknown) => e instanceof ApiError && e.code === 422);
});

test('resourceVersionMatch other than NotOlderThan on a watch also names the supported value', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.watch(CM, { resourceVersion: '1', resourceVersionMatch: 'Exact' }, { event: () => {}, close: () => {} }),
    (e: unknown) => e instanceof ApiError && e.code === 422 && JSON.stringify(e.status?.details?.causes?.map((c) => c.message)) === JSON.stringify([
      'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      'Unsupported value: "Exact": supported values: "NotOlderThan"',
    ]));
});

test('the watch cache keeps its bytes: large objects push the oldest events out, of every resource', async () => {
  const { cluster } = newCluster({ watchCacheBytes: 1024 * 1024 });
  const old = cluster.resourceVersion;
  const payload = 'x'.repeat(200 * 1024);
  cluster.create(CM, 'default', configMap('small'));
  for (let i = 0; i < 4; i++) cluster.patch(CM, 'default', 'small', 'merge', { data: { i: String(i) } });
  const small = cluster.resourceVersion;
  for (let i = 0; i < 20; i++) cluster.create(CM, 'default', configMap(`big-${i}`, undefined, { payload }));
  const stats = (resource: string) => cluster.stats().resources.find((r) => r.resource === resource)!;
  assert.ok(stats('configmaps').historyEvents < 6, `${stats('configmaps').historyEvents} events of 200 KB kept within 1 MB`);
  assert.ok(stats('configmaps').oldestResourceVersion > small, 'the oldest events went first');
  assert.equal(stats('namespaces').historyEvents, 0, 'older events of other resources went before them');
  const w = record(cluster, CM, { resourceVersion: String(old) });
  await tick();
  assert.equal(w.events[0]?.type, 'ERROR', 'a resume from before the window gets 410');
});

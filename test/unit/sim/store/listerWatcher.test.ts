import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WatchEvent } from '../../../../src/shared/k8s.ts';
import { CM, configMap, newCluster, tick } from './helpers.ts';

test('the in-process ListerWatcher lists pages and watches with the store\'s semantics', async () => {
  const { cluster } = newCluster();
  for (let i = 0; i < 3; i++) cluster.create(CM, 'default', configMap(`cm-${i}`));
  cluster.create(CM, 'kube-system', configMap('elsewhere'));
  const lw = cluster.listerWatcher(CM, 'default');
  const page = await lw.list({ limit: 2 });
  assert.deepEqual(page.items.map((i) => i.metadata.name), ['cm-0', 'cm-1']);
  assert.ok(page.metadata.continue);
  const rest = await lw.list({ limit: 2, continue: page.metadata.continue });
  assert.deepEqual(rest.items.map((i) => i.metadata.name), ['cm-2']);

  const events: WatchEvent[] = [];
  let closed = false;
  const handle = await lw.watch({ resourceVersion: rest.metadata.resourceVersion }, { event: (e) => events.push(e), close: () => { closed = true; } });
  cluster.create(CM, 'default', configMap('new'));
  cluster.create(CM, 'kube-system', configMap('not-mine'));
  await tick();
  assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED new']);
  cluster.faults.dropWatches();
  await tick();
  assert.equal(closed, true);
  handle.stop();
});

test('list errors reject with ApiError (an expired continue is 410)', async () => {
  const { cluster } = newCluster();
  for (let i = 0; i < 3; i++) cluster.create(CM, 'default', configMap(`cm-${i}`));
  const lw = cluster.listerWatcher(CM);
  const page = await lw.list({ limit: 1 });
  cluster.create(CM, 'default', configMap('x'));
  cluster.compact();
  await assert.rejects(lw.list({ limit: 1, continue: page.metadata.continue }), (e: unknown) => (e as { code?: number }).code === 410);
});

test('client insight records lists, watches (events, bookmarks, last RV) and writes per client', async () => {
  const { cluster, clock } = newCluster({ bookmarkIntervalMs: 1000 });
  const client = { userAgent: 'my-controller/1.0', tokenId: 't1' };
  cluster.list(CM, { limit: 10 }, { client });
  const w = cluster.watch(CM, { resourceVersion: String(cluster.resourceVersion), allowWatchBookmarks: true }, { event: () => {}, close: () => {} }, { client });
  const created = cluster.create(CM, 'default', configMap('a'), { client });
  clock.step(1000);
  await tick();
  assert.throws(() => cluster.create(CM, 'default', configMap('a'), { client }));
  const info = cluster.clients.clients().find((c) => c.userAgent === 'my-controller/1.0');
  assert.ok(info);
  assert.equal(info.lists, 1);
  assert.equal(info.writes, 1);
  assert.equal(info.errors, 1);
  assert.deepEqual(info.recentWrites.map((x) => `${x.verb} ${x.key} ${x.code}`), ['create default/a 200', 'create default/a 409']);
  const watch = info.watches[0];
  assert.equal(watch?.events, 1);
  assert.equal(watch?.bookmarks, 1);
  assert.equal(watch?.lastResourceVersion, String(created.resourceVersion));
  assert.equal(watch?.open, true);
  w.stop();
  assert.equal(cluster.clients.clients()[0]?.watches[0]?.open, false);
});

test('objects from the in-process ListerWatcher are the informer\'s own (a transform may change them) unless shared frozen', async () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  const own = (await cluster.listerWatcher(CM).list({})).items[0];
  assert.ok(own && !Object.isFrozen(own.metadata));
  delete own.metadata.uid;
  assert.ok(cluster.get(CM, 'default', 'a').object.metadata.uid, 'the store is untouched');
  const shared = (await cluster.listerWatcher(CM, undefined, undefined, { shareFrozen: true }).list({})).items[0];
  assert.ok(shared && Object.isFrozen(shared.metadata));
});

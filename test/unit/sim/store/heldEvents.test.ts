import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SimCluster } from '../../../../src/sim/simCluster.ts';
import type { RequestContext, SimWatchEvent } from '../../../../src/sim/store/types.ts';
import { CM, configMap, newCluster, tick } from './helpers.ts';

// Coalescing, as one user's watch sees it: two events of an object become one, of the type that
// leaves the client's informer where both would have (see src/sim/store/heldEvents.ts).

const AS_U: RequestContext = { user: { username: 'u', groups: [] } };

function watchAs(cluster: SimCluster, ctx?: RequestContext): { events: SimWatchEvent[]; summary(): string[] } {
  const events: SimWatchEvent[] = [];
  cluster.watch(CM, { namespace: 'default', resourceVersion: String(cluster.resourceVersion) }, { event: (e) => events.push(e), close: () => {} }, ctx);
  return { events, summary: () => events.map((e) => `${e.type} ${e.object.metadata.name}=${(e.object as { data?: { k?: string } }).data?.k ?? ''}`) };
}

const coalesce = (cluster: SimCluster, name: string, count = 1): void =>
  void cluster.applyFault('coalesce-events', { user: 'u', resource: 'configmaps', name, count });

test('created then changed while held: one ADDED of the latest state', async () => {
  const { cluster } = newCluster();
  const w = watchAs(cluster, AS_U);
  coalesce(cluster, 'a');
  cluster.create(CM, 'default', configMap('a', undefined, { k: '1' }));
  cluster.patch(CM, 'default', 'a', 'merge', { data: { k: '2' } });
  await tick();
  assert.deepEqual(w.summary(), ['ADDED a=2']);
});

test('created then deleted while held: the DELETED alone, which an informer that never had the object ignores', async () => {
  const { cluster } = newCluster();
  const w = watchAs(cluster, AS_U);
  coalesce(cluster, 'a');
  cluster.create(CM, 'default', configMap('a'));
  cluster.delete(CM, 'default', 'a');
  await tick();
  assert.deepEqual(w.summary(), ['DELETED a=v']);
});

test('deleted then created again while held: a MODIFIED to the new object (another uid), as a relist would show it', async () => {
  const { cluster } = newCluster();
  const old = cluster.create(CM, 'default', configMap('a', undefined, { k: 'old' })).object;
  const w = watchAs(cluster, AS_U);
  coalesce(cluster, 'a');
  cluster.delete(CM, 'default', 'a');
  const created = cluster.create(CM, 'default', configMap('a', undefined, { k: 'new' })).object;
  await tick();
  assert.deepEqual(w.summary(), ['MODIFIED a=new']);
  assert.notEqual(w.events[0]?.object.metadata.uid, old.metadata.uid);
  assert.equal(w.events[0]?.object.metadata.uid, created.metadata.uid);
  assert.equal(JSON.parse(w.events[0]!.line()).type, 'MODIFIED');
});

test('every watch of the user holds the same event and the count is used once; other users and in-process watches are untouched', async () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a', undefined, { k: '1' }));
  const [first, second] = [watchAs(cluster, AS_U), watchAs(cluster, AS_U)];
  const other = watchAs(cluster, { user: { username: 'someone-else', groups: [] } });
  const inProcess = watchAs(cluster);
  coalesce(cluster, 'a', 1);
  for (const k of ['2', '3', '4']) cluster.patch(CM, 'default', 'a', 'merge', { data: { k } });
  await tick();
  assert.deepEqual([first.summary(), second.summary()], [['MODIFIED a=3', 'MODIFIED a=4'], ['MODIFIED a=3', 'MODIFIED a=4']]);
  assert.deepEqual(other.summary(), ['MODIFIED a=2', 'MODIFIED a=3', 'MODIFIED a=4']);
  assert.deepEqual(inProcess.summary(), other.summary());
});

test('reset sends what is held at once', async () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a', undefined, { k: '1' }));
  const w = watchAs(cluster, AS_U);
  coalesce(cluster, 'a');
  cluster.patch(CM, 'default', 'a', 'merge', { data: { k: '2' } });
  await tick();
  assert.deepEqual(w.summary(), []);
  cluster.applyFault('reset');
  await tick();
  assert.deepEqual(w.summary(), ['MODIFIED a=2']);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestContext, WriteRecord } from '../../../../src/sim/store/types.ts';
import { CM, configMap, newCluster, record, tick } from './helpers.ts';

// Each write record says who wrote, with which verb, what, at which resourceVersion, and whether
// anything changed; follow-up work is told apart from the write that caused it.

const BOB: RequestContext = { client: { userAgent: 'bob/1', tokenId: 't', user: 'bob' }, user: { username: 'bob', groups: ['system:authenticated'] } };

const line = (w: WriteRecord): string =>
  `${w.verb ?? '-'}${w.subresource ? `/${w.subresource}` : ''} ${w.type} ${w.group || 'core'}/${w.resource} ${w.namespace}/${w.name} rv=${w.resourceVersion} ${w.changed ? 'changed' : 'unchanged'} by ${w.user ?? '-'}${w.followUp ? ' (follow-up)' : ''}`;

test('a record per commit: verb, object, the new resourceVersion and the writing user', () => {
  const { cluster } = newCluster();
  const writes: WriteRecord[] = [];
  cluster.onWrite((w) => writes.push(w));
  const created = cluster.create(CM, 'default', configMap('a'), BOB);
  const patched = cluster.patch(CM, 'default', 'a', 'merge', { data: { k: 'w' } }, undefined, BOB);
  cluster.create(CM, 'default', configMap('in-process'));
  assert.deepEqual(writes.map(line), [
    `create ADDED core/configmaps default/a rv=${created.resourceVersion} changed by bob`,
    `patch MODIFIED core/configmaps default/a rv=${patched.resourceVersion} changed by bob`,
    `create ADDED core/configmaps default/in-process rv=${cluster.resourceVersion} changed by -`,
  ]);
  assert.equal(writes[1]?.previous?.resourceVersion, created.resourceVersion);
});

test('a write that stores nothing is reported as unchanged, only to listeners that ask', () => {
  const { cluster } = newCluster();
  const stored = cluster.create(CM, 'default', configMap('a'), BOB);
  const all: WriteRecord[] = [];
  const commits: WriteRecord[] = [];
  cluster.onWrite((w) => all.push(w), { unchanged: true });
  cluster.onWrite((w) => commits.push(w));
  const same = cluster.update(CM, 'default', 'a', structuredClone(stored.object) as never, undefined, BOB);
  assert.equal(same.resourceVersion, stored.resourceVersion);
  cluster.update(CM, 'default', 'a', structuredClone(stored.object) as never, undefined, { ...BOB, dryRun: true });
  assert.deepEqual(all.map(line), [`update MODIFIED core/configmaps default/a rv=${stored.resourceVersion} unchanged by bob`]);
  assert.equal(all[0]?.object, all[0]?.previous);
  assert.deepEqual(commits, []);
});

test('the garbage collection a delete causes is follow-up work of that delete', () => {
  const { cluster } = newCluster();
  const owner = cluster.create(CM, 'default', configMap('owner')).object;
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid ?? '' };
  cluster.create(CM, 'default', { ...configMap('dependent'), metadata: { name: 'dependent', ownerReferences: [ref] } });
  const writes: WriteRecord[] = [];
  cluster.onWrite((w) => writes.push(w));
  cluster.delete(CM, 'default', 'owner', {}, BOB);
  assert.deepEqual(writes.map((w) => line(w).replace(/rv=\d+ /, '')), [
    'delete DELETED core/configmaps default/owner changed by bob',
    'delete DELETED core/configmaps default/dependent changed by bob (follow-up)',
  ]);
});

test('a listener runs before any watcher is sent the event', async () => {
  const { cluster } = newCluster();
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  const seenByWatcher: number[] = [];
  cluster.onWrite(() => seenByWatcher.push(w.events.length));
  cluster.create(CM, 'default', configMap('a'));
  await tick();
  assert.deepEqual([seenByWatcher, w.events.length], [[0], 1]);
});

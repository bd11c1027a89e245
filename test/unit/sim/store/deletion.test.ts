import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { CM, DEPLOY, NS, PODS, POD_SPEC, RS, configMap, newCluster, record, tick, workloadSpec } from './helpers.ts';
import type { SimCluster } from '../../../../src/sim/simCluster.ts';

const gone = (cluster: SimCluster, gvr: typeof CM, ns: string, name: string): boolean => {
  try {
    cluster.get(gvr, ns, name);
    return false;
  } catch (e) {
    return e instanceof ApiError && e.code === 404;
  }
};

/** A ReplicaSet or Pod (by the owner's kind) owned by `owner`. */
function owned(name: string, owner: { kind: string; apiVersion: string; name: string; uid: string }[]): KubeObject {
  const spec = owner[0]?.kind === 'Deployment' ? workloadSpec() : structuredClone(POD_SPEC);
  // Only one owner may be the controller (the API server refuses two).
  return { metadata: { name, ownerReferences: owner.map((o, i) => ({ ...o, controller: i === 0 })) }, spec };
}

test('delete without finalizers removes the object and answers it with deleted=true', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  const r = cluster.delete(CM, 'default', 'a');
  assert.equal(r.deleted, true);
  assert.equal(r.object.object.metadata.name, 'a');
  assert.ok(gone(cluster, CM, 'default', 'a'));
  assert.throws(() => cluster.delete(CM, 'default', 'a'), (e: unknown) => e instanceof ApiError && e.code === 404);
});

test('with finalizers, delete sets deletionTimestamp; the object goes when an update removes the last finalizer', async () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', { ...configMap('a'), metadata: { name: 'a', finalizers: ['example.com/one', 'example.com/two'] } });
  const w = record(cluster, CM, { resourceVersion: String(cluster.resourceVersion) });
  const r = cluster.delete(CM, 'default', 'a', { gracePeriodSeconds: 0 });
  assert.equal(r.deleted, false);
  assert.ok(r.object.object.metadata.deletionTimestamp);
  assert.equal(r.object.object.metadata.deletionGracePeriodSeconds, 0);
  assert.equal(cluster.delete(CM, 'default', 'a').deleted, false, 'a second delete changes nothing');
  cluster.patch(CM, 'default', 'a', 'json', [{ op: 'remove', path: '/metadata/finalizers/0' }]);
  assert.ok(!gone(cluster, CM, 'default', 'a'));
  cluster.patch(CM, 'default', 'a', 'merge', { metadata: { finalizers: null } });
  assert.ok(gone(cluster, CM, 'default', 'a'));
  await tick();
  assert.deepEqual(w.events.map((e) => e.type), ['MODIFIED', 'MODIFIED', 'DELETED']);
});

test('background garbage collection deletes dependents whose owners are all gone, transitively', () => {
  const { cluster } = newCluster();
  const d = cluster.create(DEPLOY, 'default', { metadata: { name: 'web' }, spec: { replicas: 1, ...workloadSpec() } }).object;
  const rs = cluster.create(RS, 'default', { ...owned('web-1', [{ kind: 'Deployment', apiVersion: 'apps/v1', name: 'web', uid: d.metadata.uid ?? '' }]) }).object;
  cluster.create(PODS, 'default', owned('web-1-a', [{ kind: 'ReplicaSet', apiVersion: 'apps/v1', name: 'web-1', uid: rs.metadata.uid ?? '' }]));
  const other = cluster.create(CM, 'default', configMap('keeper')).object;
  cluster.create(PODS, 'default', owned('two-owners', [
    { kind: 'ReplicaSet', apiVersion: 'apps/v1', name: 'web-1', uid: rs.metadata.uid ?? '' },
    { kind: 'ConfigMap', apiVersion: 'v1', name: 'keeper', uid: other.metadata.uid ?? '' },
  ]));
  cluster.delete(DEPLOY, 'default', 'web');
  assert.ok(gone(cluster, RS, 'default', 'web-1'));
  assert.ok(gone(cluster, PODS, 'default', 'web-1-a'));
  const survivor = cluster.get(PODS, 'default', 'two-owners').object;
  assert.deepEqual(survivor.metadata.ownerReferences?.map((o) => o.name), ['keeper'], 'the dangling reference is dropped');
});

test('a dependent written after its owner was deleted (from a stale view of it) is collected; one of a live owner, or of a uid never seen, stays', () => {
  const { cluster } = newCluster();
  const owner = cluster.create(CM, 'default', configMap('owner')).object;
  const ref = (uid: string) => [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid, controller: true }];
  cluster.delete(CM, 'default', 'owner');
  cluster.create(CM, 'default', { ...configMap('late'), metadata: { name: 'late', ownerReferences: ref(owner.metadata.uid ?? '') } });
  assert.ok(gone(cluster, CM, 'default', 'late'), 'made again for an owner already gone: collected');
  const again = cluster.create(CM, 'default', configMap('owner')).object;
  cluster.create(CM, 'default', { ...configMap('current'), metadata: { name: 'current', ownerReferences: ref(again.metadata.uid ?? '') } });
  cluster.create(CM, 'default', { ...configMap('unknown'), metadata: { name: 'unknown', ownerReferences: ref('never-seen') } });
  assert.ok(!gone(cluster, CM, 'default', 'current'));
  assert.ok(!gone(cluster, CM, 'default', 'unknown'));
});

test('propagationPolicy=Orphan keeps dependents and removes their owner reference', () => {
  const { cluster } = newCluster();
  const d = cluster.create(DEPLOY, 'default', { metadata: { name: 'web' }, spec: workloadSpec() }).object;
  cluster.create(RS, 'default', owned('web-1', [{ kind: 'Deployment', apiVersion: 'apps/v1', name: 'web', uid: d.metadata.uid ?? '' }]));
  cluster.delete(DEPLOY, 'default', 'web', { propagationPolicy: 'Orphan' });
  const rs = cluster.get(RS, 'default', 'web-1').object;
  assert.equal(rs.metadata.ownerReferences, undefined);
});

test('a dependent with finalizers is marked for deletion by GC and stays until they go', () => {
  const { cluster } = newCluster();
  const owner = cluster.create(CM, 'default', configMap('owner')).object;
  cluster.create(CM, 'default', { ...configMap('dep'), metadata: { name: 'dep', finalizers: ['example.com/f'], ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid ?? '' }] } });
  cluster.delete(CM, 'default', 'owner');
  assert.ok(cluster.get(CM, 'default', 'dep').object.metadata.deletionTimestamp);
});

test('deleting a namespace marks it Terminating, deletes its contents, then removes it', async () => {
  const { cluster } = newCluster();
  cluster.create(NS, '', { metadata: { name: 'team' } });
  cluster.create(CM, 'team', configMap('a'));
  cluster.create(DEPLOY, 'team', { metadata: { name: 'web' }, spec: workloadSpec() });
  cluster.create(CM, 'default', configMap('elsewhere'));
  const nsWatch = record(cluster, NS, { resourceVersion: String(cluster.resourceVersion) });
  const r = cluster.delete(NS, '', 'team');
  assert.equal((r.object.object.status as { phase: string }).phase, 'Terminating');
  assert.ok(gone(cluster, CM, 'team', 'a'));
  assert.ok(gone(cluster, DEPLOY, 'team', 'web'));
  assert.ok(gone(cluster, NS, '', 'team'));
  assert.ok(!gone(cluster, CM, 'default', 'elsewhere'));
  await tick();
  assert.deepEqual(nsWatch.events.map((e) => e.type), ['MODIFIED', 'DELETED']);
});

test('a namespace stays Terminating while an object with finalizers remains, and goes when it does', () => {
  const { cluster } = newCluster();
  cluster.create(NS, '', { metadata: { name: 'team' } });
  cluster.create(CM, 'team', { ...configMap('held'), metadata: { name: 'held', finalizers: ['example.com/f'] } });
  cluster.delete(NS, '', 'team');
  const ns = cluster.get(NS, '', 'team').object;
  assert.equal((ns.status as { phase: string }).phase, 'Terminating');
  assert.ok(cluster.get(CM, 'team', 'held').object.metadata.deletionTimestamp);
  cluster.patch(CM, 'team', 'held', 'merge', { metadata: { finalizers: [] } });
  assert.ok(gone(cluster, NS, '', 'team'));
});

test('deletecollection deletes what the selectors match, in one namespace', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a', { app: 'x' }));
  cluster.create(CM, 'default', configMap('b', { app: 'y' }));
  cluster.create(CM, 'kube-system', configMap('c', { app: 'x' }));
  const r = cluster.deleteCollection(CM, { namespace: 'default', labelSelector: 'app=x' });
  assert.deepEqual(r.items.map((i) => i.object.metadata.name), ['a']);
  assert.deepEqual(cluster.list(CM, {}).items.map((i) => i.object.metadata.name), ['b', 'c']);
});

test('delete preconditions on uid and resourceVersion are 409 when they do not hold', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  assert.throws(() => cluster.delete(CM, 'default', 'a', { preconditions: { uid: 'other' } }), (e: unknown) => e instanceof ApiError && e.code === 409);
  assert.throws(() => cluster.delete(CM, 'default', 'a', { preconditions: { resourceVersion: '1' } }), (e: unknown) => e instanceof ApiError && e.code === 409);
});

test('propagationPolicy=Foreground deletes dependents before the owner', async () => {
  const { cluster } = newCluster();
  const d = cluster.create(DEPLOY, 'default', { metadata: { name: 'web' }, spec: workloadSpec() }).object;
  cluster.create(RS, 'default', owned('web-1', [{ kind: 'Deployment', apiVersion: 'apps/v1', name: 'web', uid: d.metadata.uid ?? '' }]));
  const order: string[] = [];
  cluster.onWrite((w) => { if (w.type === 'DELETED') order.push(w.key); });
  cluster.delete(DEPLOY, 'default', 'web', { propagationPolicy: 'Foreground' });
  assert.deepEqual(order, ['default/web-1', 'default/web']);
});

test('a namespace with its own finalizers goes once they are removed', () => {
  const { cluster } = newCluster();
  cluster.create(NS, '', { metadata: { name: 'team', finalizers: ['example.com/hold'] } });
  cluster.create(CM, 'team', configMap('a'));
  cluster.delete(NS, '', 'team');
  assert.ok(gone(cluster, CM, 'team', 'a'));
  const ns = cluster.get(NS, '', 'team').object;
  assert.deepEqual((ns.spec as { finalizers: string[] }).finalizers, [], 'the kubernetes finalizer is done');
  cluster.patch(NS, '', 'team', 'merge', { metadata: { finalizers: null } });
  assert.ok(gone(cluster, NS, '', 'team'));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControllerWrites, byGenerateNamePrefix } from '../../../../src/check/run/controllerWrites.ts';
import { createSimCluster } from '../../../../src/sim/simCluster.ts';

// The controller's writes are the requests it made. What the garbage collector deletes after its
// delete (the owner's dependents) is kube-controller-manager's work, as on a real cluster: no
// point for a plan to crash it at ("killed right after `delete Pod …`", a Pod it never deleted),
// and no write of its in the counts a check shows.

const CONTROLLER = { userAgent: 'manager', tokenId: 't', user: 'system:serviceaccount:default:manager' };
const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

test('a dependent the garbage collector deletes after the controller deleted its owner is not a write of the controller', async () => {
  const cluster = createSimCluster();
  const writes = new ControllerWrites(cluster, CONTROLLER.user, byGenerateNamePrefix);
  try {
    const owner = cluster.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner', namespace: 'default' } });
    const uid = owner.object.metadata.uid!;
    cluster.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dependent', namespace: 'default', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid }] } });
    cluster.delete(CONFIGMAPS, 'default', 'owner', undefined, { client: CONTROLLER });
    const deletes = writes.all.filter((w) => w.verb === 'delete');
    assert.deepEqual(deletes.map((w) => [w.name, w.byController, w.writer]), [
      ['owner', true, CONTROLLER.user],
      ['dependent', false, 'kube-controller-manager'],
    ]);
    assert.deepEqual(writes.byController.map((w) => w.point), [{ verb: 'delete', kind: 'ConfigMap', namespace: 'default', name: 'owner', occurrence: 1 }]);
  } finally {
    writes.close();
    await cluster.close();
  }
});

test("a controller fighting the cluster's own controller (deleting what it puts back) is in a write run; the scenario's write between ends a run", async () => {
  const cluster = createSimCluster();
  const writes = new ControllerWrites(cluster, CONTROLLER.user, byGenerateNamePrefix);
  const publisher = { client: { userAgent: 'kube-controller-manager/root-ca-cert-publisher', tokenId: '' } };
  const scenario = { client: { userAgent: 'controller-lab/scenario', tokenId: '' } };
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ca', namespace: 'default' } };
  try {
    for (let i = 0; i < 5; i++) {
      cluster.create(CONFIGMAPS, 'default', structuredClone(cm), publisher);
      cluster.delete(CONFIGMAPS, 'default', 'ca', undefined, { client: CONTROLLER });
    }
    assert.deepEqual(writes.longestWriteRun, { object: 'ConfigMap default/ca', writes: 5 });
    // The scenario's write between the controller's ends its run: a step it answers is no loop.
    cluster.create(CONFIGMAPS, 'default', structuredClone(cm), scenario);
    for (let i = 0; i < 6; i++) {
      cluster.delete(CONFIGMAPS, 'default', 'ca', undefined, { client: CONTROLLER });
      cluster.create(CONFIGMAPS, 'default', structuredClone(cm), i % 2 ? publisher : scenario);
    }
    assert.deepEqual(writes.longestWriteRun, { object: 'ConfigMap default/ca', writes: 5 }, 'the scenario between: no longer run');
  } finally {
    writes.close();
    await cluster.close();
  }
});

test('a write point names the request that made it (patch, apply), and a plan names it so', async () => {
  const { describePlan } = await import('../../../../src/check/plans/plan.ts');
  const { parsePlan, encodePlan } = await import('../../../../src/check/plans/planCodec.ts');
  const cluster = createSimCluster();
  const writes = new ControllerWrites(cluster, CONTROLLER.user, byGenerateNamePrefix);
  const ctx = { client: CONTROLLER, user: { username: CONTROLLER.user, groups: [] } };
  try {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { a: '1' } };
    cluster.create(CONFIGMAPS, 'default', structuredClone(cm), ctx);
    cluster.patch(CONFIGMAPS, 'default', 'web', 'merge', { data: { a: '2' } }, undefined, ctx);
    cluster.patch(CONFIGMAPS, 'default', 'web', 'apply', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { b: '3' } }, undefined, ctx);
    const stored = cluster.get(CONFIGMAPS, 'default', 'web')!.object;
    cluster.update(CONFIGMAPS, 'default', 'web', { ...stored, data: { a: '4' } }, undefined, ctx);
    const points = writes.byController.map((w) => w.point!);
    assert.deepEqual(points.map((p) => [p.verb, p.request]), [['create', undefined], ['update', 'patch'], ['update', 'apply'], ['update', undefined]]);
    const plan = parsePlan(encodePlan({ kind: 'crash-after-write', write: points[1]! }));
    assert.equal(describePlan(plan), 'killed right after `patch ConfigMap default/web`, then restarted');
    assert.match(describePlan({ kind: 'crash-after-write', write: points[2]! }), /`apply ConfigMap default\/web \(#2\)`/);
  } finally {
    writes.close();
    await cluster.close();
  }
});

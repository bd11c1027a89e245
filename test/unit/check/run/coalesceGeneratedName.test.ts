import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControllerWrites, byGenerateNamePrefix } from '../../../../src/check/run/controllerWrites.ts';
import { Perturbation } from '../../../../src/check/run/perturbation.ts';
import type { LaunchedSim } from '../../../../src/runtime/index.ts';
import { createSimCluster } from '../../../../src/sim/simCluster.ts';

// A coalesced change of an object with a generated name (`pool-*`): the plan's change is counted
// across every object of that name, so the object whose change is held (the first one made) is not
// always the one whose change comes first. Another object's changes must neither reach the hold nor
// deliver it: a controller that deleted `pool-b` first and then `pool-a` had `pool-a`'s deletion
// held with the plan taking it as delivered, and the run, never caught up, ended as a controller
// that never went quiet.

const CONTROLLER = { client: { userAgent: 'manager', tokenId: 't', user: 'system:serviceaccount:default:manager' } };
const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

test('a coalesced change under a generated name is held and let go on the held object alone', async () => {
  const cluster = createSimCluster();
  const writes = new ControllerWrites(cluster, CONTROLLER.client.user, byGenerateNamePrefix);
  const perturbation = new Perturbation(
    { kind: 'coalesce-change', change: { kind: 'ConfigMap', namespace: 'default', name: 'pool-*', occurrence: 1 } },
    { sim: { cluster } as unknown as LaunchedSim, writes, controllerUser: CONTROLLER.client.user, restart: () => {}, resync: () => {}, touch: () => {} },
  );
  try {
    const child = () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'pool-', namespace: 'default' } });
    const first = cluster.create(CONFIGMAPS, 'default', child(), CONTROLLER).object.metadata.name!;
    const second = cluster.create(CONFIGMAPS, 'default', child(), CONTROLLER).object.metadata.name!;
    cluster.delete(CONFIGMAPS, 'default', second, undefined, CONTROLLER);
    assert.equal(perturbation.reached, false, 'another object of the name changing first does not reach the hold');
    cluster.delete(CONFIGMAPS, 'default', first, undefined, CONTROLLER);
    assert.equal(perturbation.reached, true, 'the held object changing reaches it');
    assert.equal(perturbation.awaitingChange(), true, 'its deletion is held: nothing of it comes after');
    assert.equal(perturbation.letGo(true), true, 'once the scenario is done, the held deletion is let go');
    assert.equal(perturbation.error, undefined);
  } finally {
    perturbation.dispose();
    writes.close();
    await cluster.close();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchSim } from '../../../../src/runtime/simLauncher.ts';
import { GVR } from './harness.ts';

// The launch configuration's and `controller-lab run`'s `workloads` option reaches the session's
// simulated cluster; a bad value fails before anything listens.

test('workloads: { nodes: 2 } gives the session\'s cluster two fake Nodes; without it there are none', async () => {
  const withWorkloads = await launchSim({ workloads: { nodes: 2, podStartDelay: '100ms' } });
  const without = await launchSim({});
  try {
    assert.deepEqual(withWorkloads.cluster.list(GVR.nodes, {}).items.map((n) => n.object.metadata.name), ['sim-worker-1', 'sim-worker-2']);
    assert.equal(without.cluster.list(GVR.nodes, {}).items.length, 0);
  } finally {
    await withWorkloads.stop();
    await without.stop();
  }
});

test('a bad workloads value is one clear error', async () => {
  await assert.rejects(launchSim({ workloads: { nodes: 'many' } }), /workloads: nodes: must be a whole number from 0 to 1000/);
  await assert.rejects(launchSim({ workloads: 'yes' }), /workloads: expected true, or a map/);
});

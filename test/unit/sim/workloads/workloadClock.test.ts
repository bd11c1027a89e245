import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { newCluster, tick } from '../store/helpers.ts';
import { deployment, GVR, statusOf } from './harness.ts';

// The workload simulation's waits run on the clock it is given, not the cluster's: a check's
// scenario clock jumps over a Pod's start delay while the cluster's own clock stands still.

test('a Pod starts when the workload clock passes its start delay, whatever the cluster clock does', async () => {
  const workloadClock = new FakeClock();
  const { cluster, clock } = newCluster({ workloadClock });
  cluster.enableWorkloads({ podStartDelayMs: 5000 });
  cluster.create(GVR.deployments, 'default', deployment('web', 1, 'nginx'));
  const step = async (c: FakeClock, ms: number) => {
    for (let t = 0; t < ms; t += 10) {
      await tick();
      c.step(10);
      await tick();
    }
  };
  const phases = () => cluster.list(GVR.pods, { namespace: 'default' }).items.map((s) => statusOf(s.object).phase);
  await step(workloadClock, 100);
  assert.deepEqual(phases(), ['Pending']);
  await step(clock, 6000);
  assert.deepEqual(phases(), ['Pending'], 'the cluster clock does not start it');
  assert.equal(cluster.workloadsBusy(0), false, 'nothing queued: only a wait');
  assert.equal(cluster.workloadsBusy(6000), true, 'a Pod about to start');
  await step(workloadClock, 5000);
  assert.deepEqual(phases(), ['Running']);
  await cluster.close();
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ControllerSession } from '../../../../src/runtime/index.ts';
import { ControllerWrites, byGenerateNamePrefix } from '../../../../src/check/run/controllerWrites.ts';
import { Quietness, type QuietSubject } from '../../../../src/check/run/quietness.ts';
import { createSimCluster } from '../../../../src/sim/simCluster.ts';

// A controller working through a long list (ten thousand children, at fifty reconciles a second)
// is no write loop: a loop writes the same objects again, a drain writes new ones. Its parent's
// count written after each child is progress; at the run's deadline it is given more time while it
// keeps making new objects, up to the check's budget, and what it was doing then is said.

const CONTROLLER = { client: { userAgent: 'manager', tokenId: 't', user: 'system:serviceaccount:default:manager' } };
const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });

test("a controller making children and writing its parent's count after each is in no write loop; one writing its parent alone is", async () => {
  const cluster = createSimCluster();
  const writes = new ControllerWrites(cluster, CONTROLLER.client.user, byGenerateNamePrefix);
  try {
    cluster.create(CONFIGMAPS, 'default', configMap('parent'));
    for (let i = 0; i < 100; i++) {
      cluster.create(CONFIGMAPS, 'default', configMap(`child-${i}`), CONTROLLER);
      const parent = cluster.get(CONFIGMAPS, 'default', 'parent').object;
      cluster.update(CONFIGMAPS, 'default', 'parent', { ...parent, data: { children: String(i + 1) } }, undefined, CONTROLLER);
    }
    assert.ok(writes.longestWriteRun.writes < 40, `a drain: ${JSON.stringify(writes.longestWriteRun)}`);
    assert.equal(writes.newObjectsWithin(60_000), 101, 'each child, and the parent, written for the first time');
    for (let i = 0; i < 40; i++) {
      const parent = cluster.get(CONFIGMAPS, 'default', 'parent').object;
      cluster.update(CONFIGMAPS, 'default', 'parent', { ...parent, data: { stamp: String(i) } }, undefined, CONTROLLER);
    }
    assert.equal(writes.longestWriteRun.object, 'ConfigMap default/parent');
    assert.ok(writes.longestWriteRun.writes >= 40, 'the parent alone, again and again: a loop');
  } finally {
    writes.close();
    await cluster.close();
  }
});

const busySession = { running: true, inFlight: () => [], queue: { depth: 900, processing: 1, omitted: 0, keys: [] } } as unknown as ControllerSession;

function draining(newObjects: () => number): QuietSubject {
  const writes = { sinceLastControllerWrite: () => 0, longestWriteRun: { object: '', writes: 0 }, newObjectsWithin: newObjects } as unknown as ControllerWrites;
  return { session: () => busySession, writes, caughtUp: () => true, clusterBusy: () => false, awaitingChange: () => false, letGo: () => false, scenarioDone: () => true, jumpScenario: () => {}, scenarioClock: () => Date.now(), polledSinceLastChange: () => false, lastStartOf: () => undefined };
}

test('a controller still making new objects at its deadline is given more time while it does, up to the bound; one that stopped is not', async () => {
  const started = performance.now();
  // Draining until 600 ms in, then stuck (busy, writing nothing new).
  const q = new Quietness(draining(() => (performance.now() - started < 600 ? 5 : 0)));
  assert.equal(await q.settle(started + 200, started + 5000), false);
  const took = performance.now() - started;
  assert.ok(took >= 590 && took < 2000, `ended once it stopped draining: ${took} ms`);
  assert.equal(q.stillDraining, undefined, 'no longer draining');

  const still = new Quietness(draining(() => 7));
  const at = performance.now();
  assert.equal(await still.settle(at + 200, at + 700), false);
  assert.ok(performance.now() - at >= 690, 'ran on to the bound');
  assert.deepEqual(still.stillDraining, { newObjects: 7, windowMs: 3000, queued: 901 }, 'what it was doing when its time ran out');
});

test('a write loop that began with a first write a moment ago ends the run at once, and is no drain', async () => {
  const subject = draining(() => 1);
  (subject.writes as unknown as { longestWriteRun: { object: string; writes: number } }).longestWriteRun = { object: 'ConfigMap default/a', writes: 40 };
  const q = new Quietness(subject);
  const at = performance.now();
  assert.equal(await q.settle(at + 5000, at + 10_000), false);
  assert.ok(performance.now() - at < 1000, 'ended by the loop, not the deadline');
  assert.equal(q.stillDraining, undefined);
});

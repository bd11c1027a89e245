// Events expire an hour after they were last written, as kube-apiserver's --event-ttl has them:
// counted from the write, not from the times an Event's fields hold, and a count raised starts the
// hour again. A served cluster runs the expiry; the cluster's clock drives it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { EVENT_TTL_MS, EventTtl } from '../../../../src/sim/bootstrap/eventTtl.ts';
import { createSimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer } from '../../../../src/sim/server/simServer.ts';
import { newCluster } from '../store/helpers.ts';

const EVENTS = { group: '', version: 'v1', resource: 'events' };

function event(name: string, lastTimestamp = '2019-01-01T00:00:00Z'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'default' },
    involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'cfg' },
    reason: 'Synced',
    message: 'ok',
    source: { component: 'test' },
    firstTimestamp: lastTimestamp,
    lastTimestamp,
    count: 1,
    type: 'Normal',
  };
}

test('an Event goes a TTL after its last write, whatever its timestamps say', () => {
  const { cluster, clock } = newCluster();
  const ttl = new EventTtl(cluster, { ttlMs: 1000, sweepIntervalMs: 100 });
  const names = (): string[] => cluster.list(EVENTS, { namespace: 'default' }).items.map((s) => s.object.metadata.name!).sort();
  cluster.create(EVENTS, 'default', event('before-start'));
  ttl.start();
  cluster.create(EVENTS, 'default', event('quiet'));
  cluster.create(EVENTS, 'default', event('counted'));
  clock.step(600);
  assert.deepEqual(names(), ['before-start', 'counted', 'quiet'], 'timestamps from 2019 are not what counts');
  const counted = structuredClone(cluster.get(EVENTS, 'default', 'counted').object) as KubeObject;
  counted.count = 2;
  cluster.update(EVENTS, 'default', 'counted', counted);
  clock.step(450);
  assert.deepEqual(names(), ['before-start', 'counted'], 'at 1.05 s: the one written at 0 went, the one counted again at 0.6 s stays');
  clock.step(600);
  assert.deepEqual(names(), [], 'an Event kept from before the start gets its TTL from the first sweep (0.1 s)');
  ttl.stop();
  cluster.create(EVENTS, 'default', event('after-stop'));
  clock.step(5000);
  assert.deepEqual(names(), ['after-stop']);
});

test('a served cluster expires Events after an hour', async () => {
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const cluster = createSimCluster({ clock });
  const server = await startSimServer(cluster);
  try {
    cluster.create(EVENTS, 'default', event('old-news', '2026-01-01T00:00:00Z'));
    clock.step(EVENT_TTL_MS - 60_000);
    assert.equal(cluster.list(EVENTS, { namespace: 'default' }).items.length, 1);
    clock.step(2 * 60_000);
    assert.equal(cluster.list(EVENTS, { namespace: 'default' }).items.length, 0);
  } finally {
    await server.stop();
    await cluster.close();
  }
});

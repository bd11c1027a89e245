import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSharedInformer, type ListerWatcher } from '../../../../src/informer/index.ts';
import type { FakeClock } from '../../../../src/shared/clock.ts';
import type { SimCluster } from '../../../../src/sim/simCluster.ts';
import { CM, configMap, newCluster } from './helpers.ts';

async function settle(clock: FakeClock): Promise<void> {
  for (let i = 0; i < 40; i++) {
    for (let j = 0; j < 20; j++) await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    clock.step(1000);
  }
}

test('an informer whose resourceVersion is ahead of a restarted server (it lost its data) relists instead of resuming: no ghosts', async () => {
  const before = newCluster();
  for (let i = 0; i < 30; i++) before.cluster.create(CM, 'default', configMap(`old-${i}`));
  let server: SimCluster = before.cluster;
  // One endpoint, whichever server answers there now.
  const lw: ListerWatcher = {
    list: (options, signal) => server.listerWatcher(CM).list(options, signal),
    watch: (options, sink, signal) => server.listerWatcher(CM).watch(options, sink, signal),
  };
  const clock = before.clock;
  const informer = createSharedInformer({ name: 'configmaps', listerWatcher: lw, clock, random: () => 0.5 });
  const probes: string[] = [];
  informer.onProbe((p) => probes.push(p.kind));
  informer.run();
  await settle(clock);
  assert.equal(informer.indexer.list().length, 30);

  // The server comes back empty: its resourceVersions start again far below the informer's.
  const after = newCluster();
  after.cluster.create(CM, 'default', configMap('new-0'));
  after.cluster.create(CM, 'default', configMap('new-1'));
  assert.ok(after.cluster.resourceVersion < Number(informer.lastSyncResourceVersion()));
  server = after.cluster;
  before.cluster.faults.dropWatches();
  await settle(clock);

  const cached = informer.indexer.list().map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
  const served = after.cluster.list(CM, {}).items.map((i) => `${i.object.metadata.name}@${i.object.metadata.resourceVersion}`).sort();
  assert.deepEqual(cached, served, 'the cache holds what the server holds now');
  assert.ok(probes.includes('relist'));
  informer.stop();
});

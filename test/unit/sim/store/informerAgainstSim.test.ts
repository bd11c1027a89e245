import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSharedInformer } from '../../../../src/informer/index.ts';
import type { SimCluster } from '../../../../src/sim/simCluster.ts';
import type { FakeClock } from '../../../../src/shared/clock.ts';
import { CM, configMap, newCluster } from './helpers.ts';

/** Lets the informer and the sim settle: microtasks, then clock steps for backoff timers. */
async function settle(clock: FakeClock): Promise<void> {
  for (let i = 0; i < 40; i++) {
    for (let j = 0; j < 20; j++) await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    clock.step(1000);
  }
}

function storeState(cluster: SimCluster): string[] {
  return cluster.list(CM, {}).items.map((i) => `${i.object.metadata.namespace}/${i.object.metadata.name}@${i.object.metadata.resourceVersion}`);
}

for (const useWatchList of [false, true]) {
  test(`the informer ${useWatchList ? '(streaming list)' : '(paged list)'} mirrors the sim through drops, compaction and 410s`, async () => {
    const { cluster, clock } = newCluster({ watchCacheSize: 5 });
    for (let i = 0; i < 12; i++) cluster.create(CM, 'default', configMap(`cm-${i}`));
    const informer = createSharedInformer({ name: 'configmaps', listerWatcher: cluster.listerWatcher(CM), clock, pageSize: 5, useWatchList, random: () => 0.5 });
    const probes: string[] = [];
    informer.onProbe((p) => probes.push(p.kind));
    informer.run();
    await settle(clock);
    assert.equal(informer.hasSynced(), true);
    const cached = (): string[] => informer.indexer.list().map((o) => `${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
    assert.deepEqual(cached(), storeState(cluster).sort());

    cluster.patch(CM, 'default', 'cm-1', 'merge', { data: { k: 'changed' } });
    cluster.delete(CM, 'default', 'cm-2');
    await settle(clock);
    assert.deepEqual(cached(), storeState(cluster).sort());

    // While disconnected, more changes than the watch cache holds: the resume gets 410 and relists.
    cluster.faults.withholdEvents();
    for (let i = 0; i < 9; i++) cluster.patch(CM, 'default', `cm-${i + 3}`, 'merge', { data: { k: `v${i}` } });
    cluster.delete(CM, 'default', 'cm-0');
    cluster.faults.dropWatches();
    cluster.faults.releaseEvents();
    cluster.compact();
    await settle(clock);
    assert.deepEqual(cached(), storeState(cluster).sort());
    assert.ok(probes.includes('expired'), 'the resume was answered 410 and the informer relisted');
    informer.stop();
  });
}

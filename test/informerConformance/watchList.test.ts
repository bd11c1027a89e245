import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../src/shared/k8s.ts';
import { logLine, recordedInformer } from './recordedInformer.ts';
import type { RecordedInformer } from './recordedInformer.ts';
import { adminCluster, byKey, CONFIGMAPS, configMap, configMapsIn, create, createNamespace, inParallel, listAll, measure, note, unique, until } from './target.ts';

// `controller-lab watch --watch-list`: the informer asks for a streaming list (a watch with
// sendInitialEvents). kube-apiserver 1.28 serves that only behind the WatchList feature gate, off
// by default: the informer must say so once and sync by a plain list; a server that streams must
// give the same cache.

const OBJECTS = 1000;

describe('watch-list (streaming list), or the fallback to a plain list', () => {
  const admin = adminCluster();
  const ns = unique('informer-watchlist');
  const collection = configMapsIn(ns);
  let watched: RecordedInformer;

  before(async () => {
    await createNamespace(admin, ns);
    await inParallel([...Array(OBJECTS).keys()], 16, (i) => create(admin, collection, configMap(ns, `cm-${i}`, { index: String(i) })));
  });

  after(() => {
    watched?.informer.stop();
    admin.close();
  });

  it('syncs every object either way, saying so once when the server cannot stream', async () => {
    watched = recordedInformer('configmaps', adminCluster().listerWatcher(CONFIGMAPS, { namespace: ns }), { useWatchList: true });
    watched.informer.run();
    assert.equal(await watched.informer.waitForSync(), true);
    const streamed = watched.probesOf('listPage').length === 0;
    measure('watch-list', 'the initial list streamed (1), or fell back to a plain list (0)', streamed ? 1 : 0, '');
    const said = watched.errors.map((e) => (e instanceof Error ? e.message : String(e)));
    if (streamed) assert.deepEqual(said, []);
    else {
      assert.equal(said.length, 1, `errors: ${said.join('; ')}`);
      assert.match(said[0]!, /^streaming list unavailable, falling back to a plain list: /);
      note('watch-list', `the informer said: ${said[0]}`);
    }
    const fresh = await listAll(admin, collection);
    assert.deepEqual(byKey(watched.informer.indexer.list() as KubeObject[]), byKey(fresh.items));
    assert.deepEqual([...watched.log].sort(), fresh.items.map((o) => `add* ${ns}/${o.metadata.name} ${o.metadata.resourceVersion}`).sort());
  });

  it('watches on after the sync', async () => {
    watched.log.length = 0;
    await until('the watch after the sync', () => watched.informer.stats().watches > 0 && watched.informer.hasSynced(), 30_000);
    const made = await create(admin, collection, configMap(ns, 'after-the-sync', {}));
    await until('the create', () => watched.log.length > 0, 30_000);
    assert.deepEqual(watched.log, [logLine.add(made)]);
  });
});

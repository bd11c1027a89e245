import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../src/shared/k8s.ts';
import { logLine, recordedInformer } from './recordedInformer.ts';
import type { RecordedInformer } from './recordedInformer.ts';
import {
  adminCluster, byKey, compactStorage, CONFIGMAPS, configMap, configMapsIn, create, createNamespace, expireHistory, inParallel, listAll, unique, until,
} from './target.ts';
import { UnpluggableListerWatcher } from './unpluggableListerWatcher.ts';

// A relist paged in 500s (a consistent read: the list at the informer's version was refused 410, as
// a server without its watch cache refuses one etcd compacted) whose storage is compacted between two pages: the next page's continue
// token is too old (410). The informer must ask for that list again whole, at the version it asked
// for (client-go's pager), rather than cache half of one version and half of another, or page again
// into the next compaction.

const OBJECTS = 1200;
const PAGE = 500;

describe('a paged relist whose continue token expires', () => {
  const admin = adminCluster();
  const ns = unique('informer-continue');
  const collection = configMapsIn(ns);
  let cable: UnpluggableListerWatcher;
  let watched: RecordedInformer;

  before(async () => {
    await createNamespace(admin, ns);
    await inParallel([...Array(OBJECTS).keys()], 16, (i) => create(admin, collection, configMap(ns, `cm-${i}`, { index: String(i) })));
    cable = new UnpluggableListerWatcher(adminCluster().listerWatcher(CONFIGMAPS, { namespace: ns }));
    watched = recordedInformer('configmaps', cable, { pageSize: PAGE });
    watched.informer.run();
    assert.equal(await watched.informer.waitForSync(), true);
    await until('the first watch', () => watched.informer.stats().watches > 0);
  });

  after(() => {
    watched?.informer.stop();
    admin.close();
  });

  it('starts the list over after a 410 on its second page and caches one consistent version', async () => {
    watched.log.length = 0;
    const probesBefore = watched.probes.length;
    // A relist, paged: the watch resumes into forgotten history (410) while the cable is out.
    cable.unplug();
    const first = await create(admin, collection, configMap(ns, 'before-the-relist', {}));
    await expireHistory();
    cable.refuseNextListAtVersion();
    cable.holdNextPages();
    cable.plugIn();
    await until('the relist waiting for its second page', () => cable.heldPages > 0, 60_000);
    // Between the pages: a change, then storage compacted past the first page's version.
    const second = await create(admin, collection, configMap(ns, 'between-the-pages', {}));
    const compacted = await compactStorage();
    cable.releaseNextPages();

    await until('the handlers told of both creates', () => watched.log.length >= 2, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual([...watched.log].sort(), [logLine.add(first), logLine.add(second)].sort());
    const expired = watched.probesOf('expired', probesBefore);
    // Three 410s: the resumed watch's, the list at its version, then the next page's (HTTP answers to list requests).
    assert.equal(expired.length, 3, `410s seen after ${compacted}: ${JSON.stringify(expired)}`);
    assert.deepEqual(expired.slice(1).map((e) => e.via), ['http', 'http']);
    // Then consistent reads: the one cut short, and the one asked for whole.
    assert.deepEqual(watched.probesOf('listStart', probesBefore).map((s) => s.resourceVersion).slice(1), [undefined, undefined]);
    // The list asked for again is one page: no continue token to expire.
    const pages = watched.probesOf('listPage', probesBefore);
    assert.deepEqual(pages.slice(-1).map((p) => [p.items, p.continued]), [[OBJECTS + 2, false]]);
    const ends = watched.probesOf('listEnd', probesBefore);
    assert.deepEqual(ends.map((e) => e.items), [OBJECTS + 2]);
    const fresh = await listAll(admin, collection);
    assert.deepEqual(byKey(watched.informer.indexer.list() as KubeObject[]), byKey(fresh.items));
  });
});

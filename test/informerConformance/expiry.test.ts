import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../src/shared/k8s.ts';
import { logLine, recordedInformer } from './recordedInformer.ts';
import type { RecordedInformer } from './recordedInformer.ts';
import {
  adminCluster, byKey, CONFIGMAPS, configMap, configMapsIn, create, createNamespace, expireHistory, inParallel, listAll, measure, remove, unique, until, update,
} from './target.ts';
import { UnpluggableListerWatcher } from './unpluggableListerWatcher.ts';

// The informer loses its connection; meanwhile objects are deleted, changed and made, and the
// server forgets its history. Plugged in again, its watch resumes from a version the server no
// longer has: 410 Gone. It must list again and tell the handlers what changed, a delete it never
// saw as a tombstone (client-go's DeletedFinalStateUnknown). As client-go, that list is at the
// version the informer had reached, asked for whole: the watch cache serves it with anything as new
// or newer, at once, rather than etcd page by page.

const OBJECTS = 1200;
const EACH = 5;
const PAGE = 500;

describe('watch expiry (410 Gone) while disconnected', () => {
  const admin = adminCluster();
  const ns = unique('informer-expiry');
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
    // The watch is open once the informer connected after its list.
    await until('the first watch', () => watched.informer.stats().watches > 0);
  });

  after(() => {
    watched?.informer.stop();
    admin.close();
  });

  it('relists after the 410 at its last version, whole, and tells the handlers every change, a missed delete as a tombstone', async () => {
    watched.log.length = 0;
    const probesBefore = watched.probes.length;
    cable.unplug();
    const versionBefore = watched.informer.lastSyncResourceVersion();

    const cached = (name: string): KubeObject => watched.informer.indexer.get(`${ns}/${name}`) as KubeObject;
    const expected: string[] = [];
    for (let i = 0; i < EACH; i++) {
      const gone = cached(`cm-${i}`);
      await remove(admin, collection, gone.metadata.name!);
      // What the handler is told: the last state the cache had, flagged as maybe stale.
      expected.push(logLine.tombstone(gone));
      const old = cached(`cm-${EACH + i}`);
      const changed = await update(admin, collection, { ...old, data: { index: String(EACH + i), changed: 'while unplugged' } } as KubeObject);
      expected.push(logLine.update(old, changed));
      const made = await create(admin, collection, configMap(ns, `made-while-unplugged-${i}`, { index: String(i) }));
      expected.push(logLine.add(made));
    }
    const how = await expireHistory();
    // Its backoff over, the informer is waiting on the cable: the time measured is the server's and the informer's.
    await until('the informer to try to watch again', () => cable.heldRequests > 0, 30_000);
    const expiredAt = Date.now();
    cable.plugIn();

    await until('the handlers told of every change', () => watched.log.length >= expected.length, 120_000);
    measure('expiry', 'plugged in to handlers told of every change', Date.now() - expiredAt, 'ms');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual([...watched.log].sort(), [...expected].sort(), `after: ${how}`);

    const expired = watched.probesOf('expired', probesBefore);
    assert.ok(expired.length >= 1, `the informer saw the 410 (probes: ${watched.probes.slice(probesBefore).map((p) => p.kind).join(', ')})`);
    measure('expiry', `410s seen, as ${expired[0]!.via === 'event' ? 'an ERROR event in an accepted watch' : 'the HTTP answer to the watch'}`, expired.length, '');
    const relists = watched.probesOf('relist', probesBefore);
    assert.deepEqual(relists.map((r) => r.cause), ['expired']);
    const starts = watched.probesOf('listStart', probesBefore);
    assert.deepEqual(starts.map((s) => s.resourceVersion), [versionBefore]);
    const pages = watched.probesOf('listPage', probesBefore);
    measure('expiry', `pages of the relist of ${OBJECTS} ConfigMaps (pageSize ${PAGE})`, pages.length, 'pages');
    assert.deepEqual(pages.map((p) => [p.items, p.continued]), [[OBJECTS, false]]);
  });

  it('holds what a fresh list returns after the relist, and watches on from it', async () => {
    const fresh = await listAll(admin, collection);
    assert.deepEqual(byKey(watched.informer.indexer.list() as KubeObject[]), byKey(fresh.items));
    watched.log.length = 0;
    const made = await create(admin, collection, configMap(ns, 'after-the-relist', {}));
    await until('the create after the relist', () => watched.log.length > 0, 30_000);
    assert.deepEqual(watched.log, [logLine.add(made)]);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordedInformer } from './recordedInformer.ts';
import type { RecordedInformer } from './recordedInformer.ts';
import { adminCluster, CONFIGMAPS, configMap, configMapsIn, create, createNamespace, measure, rvNumber, unique, until } from './target.ts';
import { UnpluggableListerWatcher } from './unpluggableListerWatcher.ts';

// An informer whose label selector matches nothing that changes still moves its resourceVersion
// forward: the server's bookmarks (allowWatchBookmarks, about once a minute) carry the version it
// has reached. A reconnect then resumes from there, not from a version the server may have
// forgotten by then (which would cost a relist).

const LABEL = { conformance: 'bookmarked' };

describe('bookmarks', () => {
  const admin = adminCluster();
  const ns = unique('informer-bookmarks');
  const collection = configMapsIn(ns);
  let cable: UnpluggableListerWatcher;
  let watched: RecordedInformer;

  before(async () => {
    await createNamespace(admin, ns);
    await create(admin, collection, configMap(ns, 'watched', {}, LABEL));
    cable = new UnpluggableListerWatcher(adminCluster().listerWatcher(CONFIGMAPS, { namespace: ns }));
    watched = recordedInformer('configmaps', cable, { labelSelector: 'conformance=bookmarked' });
    watched.informer.run();
    assert.equal(await watched.informer.waitForSync(), true);
    await until('the first watch', () => watched.informer.stats().watches > 0);
  });

  after(() => {
    watched?.informer.stop();
    admin.close();
  });

  it('advances the informer’s resourceVersion past changes its selector filters out', async () => {
    const listed = rvNumber(watched.informer.lastSyncResourceVersion());
    let written = 0n;
    for (let i = 0; i < 5; i++) written = rvNumber((await create(admin, collection, configMap(ns, `unlabelled-${i}`, {}))).metadata.resourceVersion);
    assert.ok(written > listed);
    const waitStarted = Date.now();
    // kube-apiserver sends a watch its first bookmark about a minute after it opened.
    await until('a bookmark at or past the last write', () => rvNumber(watched.informer.lastSyncResourceVersion()) >= written, 120_000);
    measure('bookmarks', 'wait for a bookmark past the last write', Date.now() - waitStarted, 'ms');
    const bookmarks = watched.probesOf('event').filter((p) => p.type === 'BOOKMARK');
    assert.ok(bookmarks.length >= 1, 'a BOOKMARK event arrived');
    assert.ok(bookmarks.some((b) => rvNumber(b.resourceVersion) >= written), `bookmark versions ${bookmarks.map((b) => b.resourceVersion).join(', ')} reach ${written}`);
    // The handler heard of the labelled object only; the bookmarks are no objects.
    assert.deepEqual(watched.log.map((l) => l.split(' ').slice(0, 2).join(' ')), [`add* ${ns}/watched`]);
  });

  it('resumes a dropped watch from the bookmark’s version, without listing again', async () => {
    const bookmarked = watched.informer.lastSyncResourceVersion();
    const probesBefore = watched.probes.length;
    const watchesBefore = watched.informer.stats().watches;
    cable.unplug();
    cable.plugIn();
    await until('the watch reopened', () => watched.informer.stats().watches > watchesBefore, 30_000);
    const opened = watched.probesOf('watchOpen', probesBefore);
    assert.equal(opened.at(-1)?.resourceVersion, bookmarked);
    assert.deepEqual(watched.probesOf('listStart', probesBefore), []);
    const made = await create(admin, collection, configMap(ns, 'labelled-later', {}, LABEL));
    await until('the labelled object', () => watched.log.length > 1, 30_000);
    assert.deepEqual(watched.log.slice(1), [`add ${ns}/labelled-later ${made.metadata.resourceVersion}`]);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../src/shared/k8s.ts';
import { logLine, recordedInformer } from './recordedInformer.ts';
import type { RecordedInformer } from './recordedInformer.ts';
import {
  adminCluster, byKey, CONFIGMAPS, configMap, configMapsIn, create, createNamespace, inParallel, listAll, measure, remove, rvNumber, unique, until, update,
} from './target.ts';

// An informer syncing a few thousand ConfigMaps, then told of every change in the server's order
// with the server's resourceVersions, its cache equal to a fresh list at the end.

const OBJECTS = Number(process.env['CONTROLLER_LAB_CONFORMANCE_OBJECTS'] ?? 3000);
const CHANGES = 40;

describe('list+watch sync', () => {
  const admin = adminCluster();
  const ns = unique('informer-sync');
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

  it(`lists ${OBJECTS} ConfigMaps into the cache, each once and as the server holds it`, async () => {
    const cluster = adminCluster();
    watched = recordedInformer('configmaps', cluster.listerWatcher(CONFIGMAPS, { namespace: ns }), { pageSize: 500 });
    const started = performance.now();
    watched.informer.run();
    assert.equal(await watched.informer.waitForSync(), true);
    const syncMs = performance.now() - started;
    const pages = watched.probesOf('listPage');
    measure('sync', `first list of ${OBJECTS} ConfigMaps to synced`, Math.round(syncMs), 'ms');
    measure('sync', 'pages of the first list (resourceVersion=0, limit=500)', pages.length, 'pages');

    const fresh = await listAll(admin, collection);
    assert.equal(fresh.items.length, OBJECTS);
    assert.equal(watched.informer.indexer.list().length, OBJECTS);
    assert.deepEqual(byKey(watched.informer.indexer.list() as KubeObject[]), byKey(fresh.items));
    // Every object reached the handler once, flagged as part of the first list, at its listed version.
    assert.deepEqual(
      [...watched.log].sort(),
      fresh.items.map((o) => `add* ${ns}/${o.metadata.name} ${o.metadata.resourceVersion}`).sort(),
    );
    assert.equal(watched.errors.length, 0, `errors: ${watched.errors.join('; ')}`);
  });

  it('delivers every create, update and delete after the sync in the server’s order with its resourceVersions', async () => {
    watched.log.length = 0;
    const expected: (string | { deleted: string; after: bigint })[] = [];
    let last = 0n;
    const note = (line: string, rv: string | undefined): void => {
      expected.push(line);
      last = rvNumber(rv);
    };
    for (let i = 0; i < CHANGES; i++) {
      const made = await create(admin, collection, configMap(ns, `new-${i}`, { step: 'created' }));
      note(logLine.add(made), made.metadata.resourceVersion);
      const changed = await update(admin, collection, { ...made, data: { step: 'updated' } } as KubeObject);
      note(logLine.update(made, changed), changed.metadata.resourceVersion);
      const old = watched.informer.indexer.get(`${ns}/cm-${i}`) as KubeObject;
      const oldChanged = await update(admin, collection, { ...old, data: { index: String(i), step: 'updated' } } as KubeObject);
      note(logLine.update(old, oldChanged), oldChanged.metadata.resourceVersion);
      // A DELETE answers with a Status for ConfigMaps: the event's version is only known to lie between its neighbours'.
      const deletedRv = await remove(admin, collection, `cm-${CHANGES + i}`);
      expected.push({ deleted: `${ns}/cm-${CHANGES + i}`, after: last });
      if (deletedRv) last = rvNumber(deletedRv);
    }
    await until(`${expected.length} handler calls`, () => watched.log.length >= expected.length, 60_000);
    // A little longer: nothing beyond what was written may arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(watched.log.length, expected.length, `handler calls:\n${watched.log.join('\n')}`);
    let previous = 0n;
    watched.log.forEach((line, i) => {
      const want = expected[i]!;
      const rv = rvNumber(line.split(' ')[2]);
      if (typeof want === 'string') assert.equal(line, want, `handler call ${i + 1}`);
      else {
        assert.match(line, new RegExp(`^delete ${want.deleted} \\d+$`), `handler call ${i + 1}`);
        assert.ok(rv > want.after, `handler call ${i + 1}: the delete’s resourceVersion ${rv} follows the write before it (${want.after})`);
      }
      assert.ok(rv > previous, `handler call ${i + 1}: resourceVersion ${rv} after ${previous}`);
      previous = rv;
    });
    assert.equal(watched.informer.lastSyncResourceVersion(), watched.log.at(-1)!.split(' ')[2]);
  });

  it('holds what a fresh paged list (limit/continue) returns, field for field', async () => {
    const fresh = await listAll(admin, collection, 500);
    measure('sync', `pages of a fresh list of ${fresh.items.length} ConfigMaps at limit=500`, fresh.pages, 'pages');
    assert.ok(fresh.pages > 1, `the server paged the list (${fresh.pages} page)`);
    assert.deepEqual(byKey(watched.informer.indexer.list() as KubeObject[]), byKey(fresh.items));
    assert.equal(watched.errors.length, 0, `errors: ${watched.errors.join('; ')}`);
  });
});

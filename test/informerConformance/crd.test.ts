import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../src/shared/apiError.ts';
import type { ApiResource, KubeObject } from '../../src/shared/k8s.ts';
import { logLine, recordedInformer } from './recordedInformer.ts';
import type { RecordedInformer } from './recordedInformer.ts';
import { adminCluster, byKey, create, createNamespace, listAll, remove, unique, until, update } from './target.ts';

// An informer for a custom resource whose CRD does not exist yet: it cannot list (404) and keeps
// trying; once the CRD is created and served, it syncs and is told of every custom object. Then the
// CRD is deleted while watched: every custom object's delete is told, the informer is refused (404)
// and backs off; the CRD made again, it is told of the new objects.

describe('a CRD created while the informer runs', () => {
  const admin = adminCluster();
  const group = `${unique('g')}.conformance.controller-lab.dev`;
  const ns = unique('informer-crd');
  const WIDGETS: ApiResource = { group, version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true, shortNames: [], singularName: 'widget', verbs: ['list', 'watch'] };
  const collection = `/apis/${group}/v1/namespaces/${ns}/widgets`;
  const widget = (name: string, size: number): KubeObject => ({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name, namespace: ns }, spec: { size } }) as KubeObject;
  const crdName = `widgets.${group}`;
  const createCrd = (): Promise<KubeObject> => create(admin, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
    },
  } as unknown as KubeObject);
  let watched: RecordedInformer;

  before(async () => {
    await createNamespace(admin, ns);
  });

  after(() => {
    watched?.informer.stop();
    admin.close();
  });

  it('reports 404 before the CRD exists, then syncs once it is served', async () => {
    watched = recordedInformer('widgets', adminCluster().listerWatcher(WIDGETS, { namespace: ns }));
    watched.informer.run();
    await until('the first failed list', () => watched.errors.length > 0, 30_000);
    assert.ok(watched.errors[0] instanceof ApiError && watched.errors[0].code === 404, `first error: ${String(watched.errors[0])}`);
    assert.equal(watched.informer.hasSynced(), false);

    await createCrd();
    assert.equal(await watched.informer.waitForSync(), true);
    assert.equal(watched.informer.indexer.list().length, 0);
    // Discovery names the new resource as the informer was given it.
    await until('discovery to serve the CRD', async () => {
      try {
        await admin.discover({ refresh: true });
        return (await admin.resolve(`widgets.${group}`)).kind === 'Widget';
      } catch {
        return false;
      }
    }, 30_000);
    const found = await admin.resolve(`widgets.${group}`);
    assert.deepEqual([found.group, found.version, found.resource, found.namespaced], [group, 'v1', 'widgets', true]);
  });

  it('tells the handlers of every custom object created, changed and deleted, and holds what the server lists', async () => {
    await until('the watch on widgets', () => watched.informer.stats().watches > 0, 30_000);
    const expected: string[] = [];
    const made = [];
    for (let i = 0; i < 3; i++) {
      const w = await create(admin, collection, widget(`w-${i}`, i));
      made.push(w);
      expected.push(logLine.add(w));
    }
    const bigger = await update(admin, collection, { ...made[0]!, spec: { size: 10 } } as KubeObject);
    expected.push(logLine.update(made[0]!, bigger));
    await remove(admin, collection, 'w-1');
    await until('five handler calls', () => watched.log.length >= 5, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(watched.log.slice(0, 4), expected);
    assert.match(watched.log[4] ?? '', new RegExp(`^delete ${ns}/w-1 \\d+$`));
    assert.equal(watched.log.length, 5);
    const fresh = await listAll(admin, collection);
    assert.deepEqual(byKey(watched.informer.indexer.list() as KubeObject[]), byKey(fresh.items));
    assert.equal((watched.informer.indexer.get(`${ns}/w-0`) as { spec?: { size?: number } }).spec?.size, 10);
  });

  it('a CRD deleted while watched: its objects told as deleted, 404s backed off, its objects told again once it is back', async () => {
    watched.log.length = 0;
    const errorsBefore = watched.errors.length;
    const probesBefore = watched.probes.length;
    await admin.request(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`, { method: 'DELETE' });
    await until('the deletes of w-0 and w-2', () => watched.log.length >= 2, 60_000);
    assert.deepEqual(watched.log.map((l) => l.split(' ').slice(0, 2).join(' ')).sort(), [`delete ${ns}/w-0`, `delete ${ns}/w-2`]);
    assert.equal(watched.informer.indexer.list().length, 0);
    await until('the CRD gone', () => admin.request(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`).then(() => false, (e) => e instanceof ApiError && e.code === 404), 60_000);
    await until('a 404 from the server', () => watched.errors.slice(errorsBefore).some((e) => e instanceof ApiError && e.code === 404), 60_000);
    await until('a backoff after the 404', () => watched.probesOf('backoff', probesBefore).length > 0, 30_000);

    await createCrd();
    await until('the CRD served again', () => admin.request(collection).then(() => true, () => false), 60_000);
    const back = await create(admin, collection, widget('w-back', 7));
    await until('the handlers told of w-back', () => watched.log.some((l) => l.startsWith(`add ${ns}/w-back `) || l.startsWith(`add* ${ns}/w-back `)), 90_000);
    const fresh = await listAll(admin, collection);
    assert.deepEqual(byKey(watched.informer.indexer.list() as KubeObject[]), byKey(fresh.items));
    assert.equal(watched.informer.indexer.get(`${ns}/w-back`)?.metadata.resourceVersion, back.metadata.resourceVersion);
  });
});

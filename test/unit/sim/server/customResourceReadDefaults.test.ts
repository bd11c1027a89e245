// A default added to a CRD's schema shows on custom resources stored before it, on every read (get,
// list, watch), as kube-apiserver defaults what it reads from storage; what was written stays.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, openWatch } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRD = 'defaulteds.example.com';
const ITEMS = '/apis/example.com/v1/defaulteds';
const JSON_PATCH = 'application/json-patch+json';

async function patchSchema(ops: unknown[]): Promise<void> {
  const r = await call(suite.server, 'PATCH', `${CRDS}/${CRD}`, { body: ops, contentType: JSON_PATCH });
  assert.equal(r.status, 200, r.body);
}

const get = async (name: string) => (await call(suite.server, 'GET', `${ITEMS}/${name}`)).json();

describe('defaults of a custom resource\'s schema', () => {
  it('apply on read to objects stored before them, and a removed default leaves what was written', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: CRD },
      spec: {
        group: 'example.com', scope: 'Cluster', names: { plural: 'defaulteds', singular: 'defaulted', kind: 'Defaulted', listKind: 'DefaultedList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } } } }],
      },
    };
    assert.equal((await call(suite.server, 'POST', CRDS, { body: crd })).status, 201);
    const created = await call(suite.server, 'POST', ITEMS, { body: { apiVersion: 'example.com/v1', kind: 'Defaulted', metadata: { name: 'before' } } });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().a, undefined);

    await patchSchema([{ op: 'add', path: '/spec/versions/0/schema/openAPIV3Schema/properties/a/default', value: 'A' }]);
    const read = await get('before');
    assert.equal(read.a, 'A');
    assert.equal(read.metadata.resourceVersion, created.json().metadata.resourceVersion, 'nothing was written');
    assert.equal((await call(suite.server, 'GET', ITEMS)).json().items[0].a, 'A');
    const watch = await openWatch(suite.server, `${ITEMS}?watch=1`);
    const [added] = await watch.waitForLines(1);
    watch.close();
    assert.equal(JSON.parse(added!).object.a, 'A');

    const after = await call(suite.server, 'POST', ITEMS, { body: { apiVersion: 'example.com/v1', kind: 'Defaulted', metadata: { name: 'after' } } });
    assert.equal(after.json().a, 'A');
    await patchSchema([
      { op: 'remove', path: '/spec/versions/0/schema/openAPIV3Schema/properties/a/default' },
      { op: 'add', path: '/spec/versions/0/schema/openAPIV3Schema/properties/b/default', value: 'B' },
    ]);
    const written = await get('after');
    assert.deepEqual([written.a, written.b], ['A', 'B']);
    const older = await get('before');
    assert.deepEqual([older.a, older.b], [undefined, 'B']);
  });
});

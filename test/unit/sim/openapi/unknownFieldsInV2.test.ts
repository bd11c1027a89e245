// In /openapi/v2, a CRD schema's parts that keep unknown fields are open to anything, as
// kube-apiserver publishes them for kubectl's client-side validation: a kind whose whole schema
// keeps them is only `type: object` (with its group/version/kind); a nested field loses its type
// and properties. The v3 document keeps the schema as written.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';

const sim = suiteServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crd(plural: string, schema: Record<string, unknown>) {
  const kind = plural.slice(0, -1);
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.open.example.com` },
    spec: {
      group: 'open.example.com', scope: 'Namespaced', names: { plural, singular: kind, kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

describe('/openapi/v2 for schemas that keep unknown fields', () => {
  it('publishes a kind that keeps them at its root as an object, and a nested one untyped without properties', async () => {
    assert.equal((await call(sim.server, 'POST', CRDS, { body: crd('emptys', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) })).status, 201);
    const nested = { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } } } };
    assert.equal((await call(sim.server, 'POST', CRDS, { body: crd('nesteds', nested) })).status, 201);
    const doc = (await call(sim.server, 'GET', '/openapi/v2')).json();
    assert.deepEqual(doc.definitions['com.example.open.v1.empty'], { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'open.example.com', kind: 'empty', version: 'v1' }] });
    assert.deepEqual(doc.definitions['com.example.open.v1.nested'].properties.spec, { 'x-kubernetes-preserve-unknown-fields': true });
  });
});

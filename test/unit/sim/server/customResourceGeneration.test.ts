// metadata.generation of custom resources as kube-apiserver moves it: without a /status
// subresource any change but metadata bumps it, status included (a controller that compares
// observedGeneration with it would otherwise think its status write changed nothing); with one,
// a status write never does, and metadata alone never does.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
const crd = (plural: string, kind: string, subresources?: object) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.gen.example.com` },
  spec: { group: 'gen.example.com', names: { kind, plural }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema, ...(subresources ? { subresources } : {}) }] },
});
const merge = { contentType: 'application/merge-patch+json' };

async function generationAfter(path: string, kind: string, name: string, patch: object, subresource = ''): Promise<number> {
  const created = await call(suite.server, 'POST', path, { body: { apiVersion: 'gen.example.com/v1', kind, metadata: { name }, spec: { size: 1 } } });
  assert.equal(created.status, 201, created.body);
  assert.equal(created.json().metadata.generation, 1);
  const r = await call(suite.server, 'PATCH', `${path}/${name}${subresource}`, { ...merge, body: patch });
  assert.equal(r.status, 200, r.body);
  return r.json().metadata.generation;
}

describe('custom resource generation', () => {
  const plain = '/apis/gen.example.com/v1/namespaces/default/plains';
  const split = '/apis/gen.example.com/v1/namespaces/default/splits';
  before(async () => {
    assert.equal((await call(suite.server, 'POST', CRDS, { body: crd('plains', 'Plain') })).status, 201);
    assert.equal((await call(suite.server, 'POST', CRDS, { body: crd('splits', 'Split', { status: {} }) })).status, 201);
  });

  it('without a status subresource, a status change bumps it', async () => {
    assert.equal(await generationAfter(plain, 'Plain', 'p1', { status: { ready: true } }), 2);
  });

  it('without a status subresource, any other top-level field bumps it, metadata does not', async () => {
    assert.equal(await generationAfter(plain, 'Plain', 'p2', { extra: 'x' }), 2);
    assert.equal(await generationAfter(plain, 'Plain', 'p3', { metadata: { labels: { a: 'b' } } }), 1);
  });

  it('with a status subresource, a status write does not bump it and a spec change does', async () => {
    assert.equal(await generationAfter(split, 'Split', 's1', { status: { ready: true } }, '/status'), 1);
    assert.equal(await generationAfter(split, 'Split', 's2', { spec: { size: 2 } }), 2);
  });
});

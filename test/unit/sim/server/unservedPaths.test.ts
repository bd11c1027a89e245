// Paths and methods nothing serves, answered as kube-apiserver answers them: a path no API group
// claims gets the mux's plain-text 404, one inside a served group a NotFound Status, and a method
// a resource does not take a 405 whose message does not name the method; a delete left to
// finalizers is 200 unless the client asked for the old orphanDependents=false.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();

describe('paths nothing serves', () => {
  for (const path of ['/nonexistent', '/apis/unknown.example.io', '/apis/unknown.example.io/v1', '/apis/unknown.example.io/v1/widgets', '/openapi/v2x']) {
    it(`${path} is Go's plain-text "404 page not found"`, async () => {
      const r = await call(suite.server, 'GET', path);
      assert.equal(r.status, 404);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(r.body, '404 page not found\n');
    });
  }

  for (const path of ['/api/v1/widgets', '/apis/apps/v1/widgets', '/apis/apps/v2', '/api/v1/namespaces/default/configmaps/x/y/z']) {
    it(`${path} (inside a served group) is a NotFound Status`, async () => {
      const r = await call(suite.server, 'GET', path);
      assert.equal(r.status, 404);
      assert.equal(r.json().message, 'the server could not find the requested resource');
    });
  }

  it('an OpenAPI v3 group-version not served is a bare 404 with no body', async () => {
    const r = await call(suite.server, 'GET', '/openapi/v3/apis/unknown.example.io/v1');
    assert.equal(r.status, 404);
    assert.equal(r.body, '');
    assert.equal(r.headers['content-type'], undefined);
  });
});

describe('methods a resource does not take', () => {
  for (const [method, path] of [['PUT', '/api/v1/namespaces/default/configmaps'], ['POST', '/api/v1/namespaces/default/configmaps/x'], ['DELETE', '/api/v1/namespaces']] as const) {
    it(`${method} ${path} is 405 without naming the method`, async () => {
      const r = await call(suite.server, method, path, { body: {} });
      assert.equal(r.status, 405);
      assert.equal(r.json().message, 'the server does not allow this method on the requested resource');
    });
  }
});

describe('a delete that leaves the object to its finalizers', () => {
  it('answers 200 with the object, and 202 only for the deprecated orphanDependents=false', async () => {
    const base = '/api/v1/namespaces/default/configmaps';
    for (const name of ['held', 'held-cascade']) {
      const created = await call(suite.server, 'POST', base, { body: { metadata: { name, finalizers: ['x.io/f'] } } });
      assert.equal(created.status, 201);
    }
    const plain = await call(suite.server, 'DELETE', `${base}/held`);
    assert.equal(plain.status, 200);
    assert.ok(plain.json().metadata.deletionTimestamp);
    const cascading = await call(suite.server, 'DELETE', `${base}/held-cascade`, { body: { orphanDependents: false } });
    assert.equal(cascading.status, 202);
  });
});

describe('what a delete answers once the object is gone', () => {
  it('a Status Success naming it for most kinds; the object itself for those whose registry returns it (Pods, ServiceAccounts...)', async () => {
    await call(suite.server, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'gone' } } });
    await call(suite.server, 'POST', '/api/v1/namespaces/default/serviceaccounts', { body: { metadata: { name: 'gone-sa' } } });
    const cm = (await call(suite.server, 'DELETE', '/api/v1/namespaces/default/configmaps/gone')).json();
    assert.equal(cm.kind, 'Status');
    assert.equal(cm.status, 'Success');
    assert.deepEqual([cm.details.name, cm.details.kind, typeof cm.details.uid], ['gone', 'configmaps', 'string']);
    const sa = (await call(suite.server, 'DELETE', '/api/v1/namespaces/default/serviceaccounts/gone-sa')).json();
    assert.equal(sa.kind, 'ServiceAccount');
  });
});

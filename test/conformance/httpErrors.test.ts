// Bad input over real HTTPS answers a Kubernetes Status with the right code, and the server keeps
// serving afterwards (the last test checks it is still healthy and its state intact).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rawRequest, startSimProcess, waitForNamespaceDefaults, type RawResponse, type SimProcess } from './simProcess.ts';

let sim: SimProcess;

before(async () => {
  sim = await startSimProcess();
  const ns = await rawRequest(sim, 'POST', '/api/v1/namespaces', { body: '{"metadata":{"name":"errs"}}', headers: { 'Content-Type': 'application/json' } });
  assert.equal(ns.status, 201, ns.body);
  await waitForNamespaceDefaults(sim, 'errs');
});

after(async () => {
  assert.equal(await sim.stop(), 0);
});

function assertStatus(r: RawResponse, code: number, reason: string): Record<string, unknown> {
  assert.equal(r.status, code, r.body);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  const status = JSON.parse(r.body);
  assert.equal(status.kind, 'Status');
  assert.equal(status.apiVersion, 'v1');
  assert.equal(status.status, 'Failure');
  assert.equal(status.code, code);
  assert.equal(status.reason, reason);
  return status;
}

const json = { 'Content-Type': 'application/json' };

describe('bad input over HTTP', { concurrency: true }, () => {
  it('401 for a missing or wrong token', async () => {
    assertStatus(await rawRequest(sim, 'GET', '/api/v1/namespaces', { token: null }), 401, 'Unauthorized');
    assertStatus(await rawRequest(sim, 'GET', '/api/v1/namespaces', { token: 'not-the-token' }), 401, 'Unauthorized');
    assertStatus(await rawRequest(sim, 'GET', '/controller-lab/admin/state', { token: 'x' }), 401, 'Unauthorized');
  });

  it('404 for unknown paths, resources and objects', async () => {
    // Outside the served API groups, kube-apiserver's mux answers Go's plain-text 404.
    for (const path of ['/nothing/here', '/apis/nope.example.com/v1']) {
      const r = await rawRequest(sim, 'GET', path);
      assert.equal(r.status, 404, path);
      assert.equal(r.body, '404 page not found\n', path);
    }
    const unknownResource = assertStatus(await rawRequest(sim, 'GET', '/api/v1/namespaces/errs/gizmos'), 404, 'NotFound');
    assert.equal(unknownResource['message'], 'the server could not find the requested resource');
    const missing = assertStatus(await rawRequest(sim, 'GET', '/api/v1/namespaces/errs/configmaps/missing'), 404, 'NotFound');
    assert.equal(missing['message'], 'configmaps "missing" not found');
    assertStatus(await rawRequest(sim, 'GET', '/api/v1/namespaces/errs/configmaps/x/exec'), 404, 'NotFound');
  });

  it('400 for malformed JSON and YAML bodies and bad parameters', async () => {
    assertStatus(await rawRequest(sim, 'POST', '/api/v1/namespaces/errs/configmaps', { body: '{"metadata": {', headers: json }), 400, 'BadRequest');
    assertStatus(await rawRequest(sim, 'POST', '/api/v1/namespaces/errs/configmaps', { body: 'metadata: [unclosed', headers: { 'Content-Type': 'application/yaml' } }), 400, 'BadRequest');
    assertStatus(await rawRequest(sim, 'POST', '/api/v1/namespaces/errs/configmaps', { body: '[1,2]', headers: json }), 400, 'BadRequest');
    assertStatus(await rawRequest(sim, 'GET', '/api/v1/namespaces/errs/configmaps?limit=many'), 400, 'BadRequest');
    assertStatus(
      await rawRequest(sim, 'PATCH', '/api/v1/namespaces/errs/configmaps/x', { body: '{"op":"add"}', headers: { 'Content-Type': 'application/json-patch+json' } }),
      400,
      'BadRequest',
    );
  });

  it('413 for a body over 3 MiB', async () => {
    const big = JSON.stringify({ metadata: { name: 'big' }, data: { blob: 'x'.repeat(3 * 1024 * 1024 + 10) } });
    assertStatus(await rawRequest(sim, 'POST', '/api/v1/namespaces/errs/configmaps', { body: big, headers: json }), 413, 'RequestEntityTooLarge');
  });

  it('422 for an invalid name', async () => {
    const r = await rawRequest(sim, 'POST', '/api/v1/namespaces/errs/configmaps', { body: '{"metadata":{"name":"Not_Valid!"}}', headers: json });
    const status = assertStatus(r, 422, 'Invalid');
    assert.match(String(status['message']), /Not_Valid!/);
  });

  it('405 for a method a path does not allow; 415 for an unknown body type; 406 for protobuf-only', async () => {
    assertStatus(await rawRequest(sim, 'PUT', '/api/v1/namespaces/errs/configmaps'), 405, 'MethodNotAllowed');
    assertStatus(await rawRequest(sim, 'POST', '/api'), 405, 'MethodNotAllowed');
    assertStatus(
      await rawRequest(sim, 'POST', '/api/v1/namespaces/errs/configmaps', { body: 'x', headers: { 'Content-Type': 'application/cbor' } }),
      415,
      'UnsupportedMediaType',
    );
    assertStatus(
      await rawRequest(sim, 'GET', '/api/v1/namespaces/errs/configmaps', { headers: { Accept: 'application/vnd.kubernetes.protobuf' } }),
      406,
      'NotAcceptable',
    );
  });

  it('409 for a stale update and for an existing name', async () => {
    const created = await rawRequest(sim, 'POST', '/api/v1/namespaces/errs/configmaps', { body: '{"metadata":{"name":"c1"},"data":{"a":"1"}}', headers: json });
    assert.equal(created.status, 201, created.body);
    assertStatus(await rawRequest(sim, 'POST', '/api/v1/namespaces/errs/configmaps', { body: '{"metadata":{"name":"c1"}}', headers: json }), 409, 'AlreadyExists');
    const stale = JSON.stringify({ metadata: { name: 'c1', resourceVersion: '1' }, data: { a: '2' } });
    assertStatus(await rawRequest(sim, 'PUT', '/api/v1/namespaces/errs/configmaps/c1', { body: stale, headers: json }), 409, 'Conflict');
  });
});

describe('after the bad input', () => {
  it('still serves, with its state intact', async () => {
    const health = await rawRequest(sim, 'GET', '/readyz');
    assert.equal(health.status, 200);
    const list = await rawRequest(sim, 'GET', '/api/v1/namespaces/errs/configmaps');
    assert.equal(list.status, 200);
    const body = JSON.parse(list.body);
    assert.equal(body.kind, 'ConfigMapList');
    // The test's one ConfigMap, beside the namespace's CA ConfigMap.
    assert.deepEqual(body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['c1', 'kube-root-ca.crt']);
  });
});

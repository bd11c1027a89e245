import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// Answers that are never stored (reviews, a TokenRequest) carry the managedFields the API server's
// field manager records for the request, as kube-apiserver's do; a request setting no field has none.

const suite = suiteServer();

describe('managedFields of answers never stored', () => {
  it('a SelfSubjectAccessReview answer records the fields its request set', async () => {
    const r = await call(suite.server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } },
      headers: { 'User-Agent': 'probe/1.0' },
    });
    assert.equal(r.status, 201, r.body);
    const [entry, ...more] = r.json().metadata.managedFields;
    assert.equal(more.length, 0);
    assert.equal(entry.manager, 'probe');
    assert.equal(entry.operation, 'Update');
    assert.equal(entry.apiVersion, 'authorization.k8s.io/v1');
    assert.deepEqual(entry.fieldsV1, { 'f:spec': { 'f:resourceAttributes': { '.': {}, 'f:namespace': {}, 'f:resource': {}, 'f:verb': {} } } });
  });

  it('a SelfSubjectReview request sets no field, so its answer has no managedFields', async () => {
    const r = await call(suite.server, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    assert.equal(r.status, 201, r.body);
    assert.equal('managedFields' in r.json().metadata, false, r.body);
  });

  it('a TokenRequest answer records its fields under the token subresource', async () => {
    assert.equal((await call(suite.server, 'POST', '/api/v1/namespaces/default/serviceaccounts', { body: { metadata: { name: 'tok' } } })).status, 201);
    const r = await call(suite.server, 'POST', '/api/v1/namespaces/default/serviceaccounts/tok/token', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } } });
    assert.equal(r.status, 201, r.body);
    const [entry] = r.json().metadata.managedFields;
    assert.equal(entry.subresource, 'token');
    assert.equal(entry.apiVersion, 'authentication.k8s.io/v1');
    assert.deepEqual(entry.fieldsV1, { 'f:spec': { 'f:expirationSeconds': {} } });
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// Patches answered as kube-apiserver answers them: what Go prints after the patch, managed fields
// that own nothing dropped, and its words for media types it does not take.

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';

describe('patch answers', () => {
  it('a merge patch removing the last key leaves no data and no manager owning nothing', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'last-key' }, data: { a: '1' } } })).status, 201);
    const r = await call(suite.server, 'PATCH', `${CMS}/last-key`, { body: { data: { a: null } }, contentType: 'application/merge-patch+json' });
    assert.equal(r.status, 200, r.body);
    assert.equal('data' in r.json(), false, r.body);
    assert.equal('managedFields' in r.json().metadata, false, r.body);
  });

  it('a JSON patch replacing a missing key of an object adds it, as kube-apiserver\'s json-patch library does', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'replace-missing' }, data: { a: '1' } } })).status, 201);
    const r = await call(suite.server, 'PATCH', `${CMS}/replace-missing`, { body: [{ op: 'replace', path: '/data/zzz', value: 'x' }], contentType: 'application/json-patch+json' });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().data, { a: '1', zzz: 'x' });
    const missingIndex = await call(suite.server, 'PATCH', `${CMS}/replace-missing`, { body: [{ op: 'replace', path: '/metadata/finalizers/3', value: 'x' }], contentType: 'application/json-patch+json' });
    assert.equal(missingIndex.status, 422, 'a missing array index still fails');
  });

  it('a PATCH of a Content-Type no patch has is refused by the route, in its words', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'text-plain' } } })).status, 201);
    const r = await call(suite.server, 'PATCH', `${CMS}/text-plain`, { body: '{}', contentType: 'text/plain' });
    assert.equal(r.status, 415);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: '415: Unsupported Media Type', reason: 'UnsupportedMediaType', details: {}, code: 415 });
  });
});

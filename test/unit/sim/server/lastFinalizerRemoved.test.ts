import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// An update that removes the last finalizer of an object being deleted deletes it, and answers the
// object the update asked for (no finalizers, its fields recorded), as kube-apiserver answers a PUT
// then: clients expect the updated object back.

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';

describe('removing the last finalizer', () => {
  it('deletes the object and answers it as updated', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'held', finalizers: ['example.com/keep'] }, data: { a: '1' } } })).status, 201);
    assert.equal((await call(suite.server, 'DELETE', `${CMS}/held`)).status, 200);
    const r = await call(suite.server, 'PUT', `${CMS}/held`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held' }, data: { a: '1' } }, headers: { 'User-Agent': 'remover/1' } });
    assert.equal(r.status, 200, r.body);
    const answer = r.json();
    assert.equal(answer.metadata.finalizers, undefined, r.body);
    assert.ok(answer.metadata.deletionTimestamp, 'still the object being deleted');
    assert.equal(JSON.stringify(answer.metadata.managedFields).includes('f:finalizers'), false, 'no one owns the finalizers it no longer has');
    assert.equal((await call(suite.server, 'GET', `${CMS}/held`)).status, 404);
  });
});

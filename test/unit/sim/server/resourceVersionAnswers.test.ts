import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// resourceVersions the store cannot serve are answered as kube-apiserver (with its watch cache and
// etcd) answers them, since clients key on the status: a GET ahead of the cache is its 504, an
// Exact list ahead of etcd and a non-numeric resourceVersion on a write are the storage's 500s.

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, resourceVersion?: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(resourceVersion ? { resourceVersion } : {}) }, data: { a: 'b' } });

describe('resourceVersions the store has not reached or cannot read', () => {
  it('a GET at a resourceVersion not reached yet is a 504 Too large resource version', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: cm('ahead') })).status, 201);
    const r = await call(suite.server, 'GET', `${CMS}/ahead?resourceVersion=99999999`);
    assert.equal(r.status, 504, r.body);
    assert.equal(r.json().reason, 'Timeout');
    assert.match(r.json().message, /^Timeout: Too large resource version: 99999999, current: \d+$/);
    assert.equal((await call(suite.server, 'GET', `${CMS}/ahead?resourceVersion=1`)).status, 200, 'an older one is served the latest');
  });

  it('an Exact list at a resourceVersion not reached yet is etcd\'s unclassified 500', async () => {
    const r = await call(suite.server, 'GET', `${CMS}?resourceVersion=99999999&resourceVersionMatch=Exact`);
    assert.equal(r.status, 500, r.body);
    assert.equal(r.json().message, 'etcdserver: mvcc: required revision is a future revision');
    assert.equal(r.json().reason, undefined);
  });

  it('an update whose resourceVersion is not a number is the storage\'s 500 with strconv\'s words', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: cm('nan') })).status, 201);
    const r = await call(suite.server, 'PUT', `${CMS}/nan`, { body: cm('nan', 'abc') });
    assert.equal(r.status, 500, r.body);
    assert.equal(r.json().message, 'strconv.ParseUint: parsing "abc": invalid syntax');
    assert.equal(r.json().reason, undefined);
  });

  it('a paged list whose snapshot was compacted is a 410 carrying the token that goes on at the newest state, as the message offers', async () => {
    const ns = '/api/v1/namespaces/paged';
    assert.equal((await call(suite.server, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paged' } } })).status, 201);
    for (const n of ['c0', 'c1', 'c2', 'c3', 'c4']) assert.equal((await call(suite.server, 'POST', `${ns}/configmaps`, { body: cm(n) })).status, 201);
    const first = (await call(suite.server, 'GET', `${ns}/configmaps?limit=2`)).json();
    assert.equal((await call(suite.server, 'POST', `${ns}/configmaps`, { body: cm('c9') })).status, 201);
    assert.equal((await call(suite.server, 'DELETE', `${ns}/configmaps/c3`)).status, 200);
    suite.cluster.compact();
    const gone = await call(suite.server, 'GET', `${ns}/configmaps?limit=2&continue=${encodeURIComponent(first.metadata.continue)}`);
    assert.equal(gone.status, 410, gone.body);
    assert.equal(gone.json().reason, 'Expired');
    const inconsistent = gone.json().metadata.continue;
    assert.equal(JSON.parse(Buffer.from(inconsistent, 'base64url').toString()).rv, -1);
    // Continued at the newest state: c3's deletion shows, and the pages after it are consistent again.
    const next = (await call(suite.server, 'GET', `${ns}/configmaps?limit=2&continue=${encodeURIComponent(inconsistent)}`)).json();
    assert.deepEqual(next.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['c2', 'c4']);
    assert.equal(next.metadata.remainingItemCount, 1);
    const last = (await call(suite.server, 'GET', `${ns}/configmaps?limit=2&continue=${encodeURIComponent(next.metadata.continue)}`)).json();
    assert.deepEqual(last.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['c9']);
    assert.equal(last.metadata.resourceVersion, next.metadata.resourceVersion);
  });

  it('an update carrying another object\'s uid is the storage\'s 409 precondition failure, before its resourceVersion is compared', async () => {
    const made = (await call(suite.server, 'POST', CMS, { body: cm('recreated') })).json();
    const stale = { ...cm('recreated', '1'), metadata: { name: 'recreated', uid: 'abc', resourceVersion: '1' } };
    const r = await call(suite.server, 'PUT', `${CMS}/recreated`, { body: stale });
    assert.equal(r.status, 409, r.body);
    assert.equal(r.json().reason, 'Conflict');
    assert.equal(r.json().message, `Operation cannot be fulfilled on configmaps "recreated": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/recreated, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: abc, UID in object meta: ${made.metadata.uid}`);
    const status = await call(suite.server, 'PUT', '/apis/apps/v1/namespaces/default/deployments/none/status', { body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'none', uid: 'abc' } } });
    assert.equal(status.status, 409, status.body);
    assert.match(status.json().message, /Key: \/registry\/deployments\/default\/none, .*UID in object meta: $/);
  });
});

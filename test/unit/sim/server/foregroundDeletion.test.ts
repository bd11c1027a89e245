// A Foreground delete with the garbage collector running, as kube-apiserver v1.28.4 and its
// controller manager answered it: the owner stays, marked for deletion behind the
// foregroundDeletion finalizer, until every dependent that blocks its deletion is gone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';

async function create(name: string, metadata: object = {}): Promise<string> {
  const r = await call(suite.server, 'POST', CMS, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...metadata } } });
  assert.equal(r.status, 201, r.body);
  return r.json().metadata.uid;
}

const get = (name: string) => call(suite.server, 'GET', `${CMS}/${name}`);
const release = (name: string) => call(suite.server, 'PATCH', `${CMS}/${name}`, { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
const ownedBy = (name: string, uid: string, blockOwnerDeletion: boolean) => ({
  ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name, uid, blockOwnerDeletion }], finalizers: ['example.com/hold'],
});

describe('a Foreground delete', () => {
  it('keeps the owner behind foregroundDeletion while a dependent that blocks it is held, and deletes it after', async () => {
    const uid = await create('owner');
    await create('dependent', ownedBy('owner', uid, true));
    const deleted = await call(suite.server, 'DELETE', `${CMS}/owner`, { body: { propagationPolicy: 'Foreground' } });
    assert.equal(deleted.status, 200, deleted.body);
    assert.deepEqual(deleted.json().metadata.finalizers, ['foregroundDeletion']);

    const owner = await get('owner');
    assert.equal(owner.status, 200, 'the owner waits for its dependent');
    assert.deepEqual(owner.json().metadata.finalizers, ['foregroundDeletion']);
    assert.ok(owner.json().metadata.deletionTimestamp);
    assert.ok((await get('dependent')).json().metadata.deletionTimestamp, 'the dependent is being deleted');

    assert.equal((await release('dependent')).status, 200);
    assert.equal((await get('dependent')).status, 404);
    assert.equal((await get('owner')).status, 404, 'the last blocking dependent gone, the owner goes');
  });

  it('does not wait for a dependent that does not block its owner', async () => {
    const uid = await create('owner2');
    await create('dependent2', ownedBy('owner2', uid, false));
    assert.equal((await call(suite.server, 'DELETE', `${CMS}/owner2`, { body: { propagationPolicy: 'Foreground' } })).status, 200);
    assert.equal((await get('owner2')).status, 404);
    assert.ok((await get('dependent2')).json().metadata.deletionTimestamp, 'the dependent is still deleted');
    await release('dependent2');
  });

  it('of an owner whose dependents wait in a chain goes once the last of them is released', async () => {
    const top = await create('top');
    const middle = await create('middle', { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'top', uid: top, blockOwnerDeletion: true }] });
    await create('bottom', ownedBy('middle', middle, true));
    assert.equal((await call(suite.server, 'DELETE', `${CMS}/top`, { body: { propagationPolicy: 'Foreground' } })).status, 200);
    assert.deepEqual((await get('middle')).json().metadata.finalizers, ['foregroundDeletion'], 'the middle one waits for its own dependent');
    assert.equal((await get('top')).status, 200);
    await release('bottom');
    for (const name of ['bottom', 'middle', 'top']) assert.equal((await get(name)).status, 404, name);
  });
});

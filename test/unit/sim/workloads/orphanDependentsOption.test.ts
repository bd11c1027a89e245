// The deprecated DeleteOptions.orphanDependents, which client-go's e2e and older clients still
// send: true orphans the dependents (their ownerReference to the deleted owner removed), false
// deletes them, as kube-apiserver's shouldOrphanDependents reads it ahead of the kind's default.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { httpWorkloadLab } from './httpWorkloadLab.ts';

const lab = httpWorkloadLab();
const CMS = '/api/v1/namespaces/default/configmaps';

interface Meta { metadata: { uid: string; ownerReferences?: unknown[] } }

async function ownerWithDependent(name: string): Promise<void> {
  const owner = (await call(lab.server, 'POST', CMS, { body: { metadata: { name } } })).json() as Meta;
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name, uid: owner.metadata.uid };
  assert.equal((await call(lab.server, 'POST', CMS, { body: { metadata: { name: `${name}-dependent`, ownerReferences: [ref] } } })).status, 201);
}

describe('orphanDependents in DeleteOptions', () => {
  it('true in the body orphans the dependent', async () => {
    await ownerWithDependent('orphaning');
    const deleted = await call(lab.server, 'DELETE', `${CMS}/orphaning`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: true } });
    assert.equal(deleted.status, 200, deleted.body);
    await lab.until<{ code?: number }>(`${CMS}/orphaning`, (j) => j.code === 404);
    const dependent = await lab.until<Meta>(`${CMS}/orphaning-dependent`, (j) => j.metadata?.uid !== undefined && !j.metadata.ownerReferences);
    assert.equal(dependent.metadata.ownerReferences, undefined);
    lab.clock.step(5_000);
    assert.equal((await call(lab.server, 'GET', `${CMS}/orphaning-dependent`)).status, 200, 'the orphan stays');
  });

  it('true in the query orphans it too; false deletes it', async () => {
    await ownerWithDependent('query');
    assert.equal((await call(lab.server, 'DELETE', `${CMS}/query?orphanDependents=true`)).status, 200);
    await lab.until<Meta>(`${CMS}/query-dependent`, (j) => j.metadata?.uid !== undefined && !j.metadata.ownerReferences);
    await ownerWithDependent('cascading');
    assert.equal((await call(lab.server, 'DELETE', `${CMS}/cascading`, { body: { orphanDependents: false } })).status, 200);
    await lab.until<{ code?: number }>(`${CMS}/cascading-dependent`, (j) => j.code === 404);
  });
});

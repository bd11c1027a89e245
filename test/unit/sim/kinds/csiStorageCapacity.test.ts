// CSIStorageCapacities over HTTP as kube-apiserver v1.28 serves them: namespaced under
// storage.k8s.io/v1, listed across namespaces, a StorageClass name required, and the class and
// topology the capacity answers for fixed once written.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const CAPACITIES = '/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities';
const capacity = (name: string, more: Record<string, unknown> = {}) => ({
  apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', metadata: { name, labels: { test: 'csc' } }, storageClassName: 'e2e.example.com', ...more,
});

describe('CSIStorageCapacity', () => {
  it('is listed in storage.k8s.io/v1 discovery, namespaced', async () => {
    const doc = (await call(suite.server, 'GET', '/apis/storage.k8s.io/v1')).json();
    const entry = doc.resources.find((r: { name: string }) => r.name === 'csistoragecapacities');
    assert.equal(entry?.kind, 'CSIStorageCapacity');
    assert.equal(entry?.namespaced, true);
  });

  it('is created, listed across namespaces and patched', async () => {
    assert.equal((await call(suite.server, 'POST', CAPACITIES, { body: capacity('csc1', { capacity: '10Gi' }) })).status, 201);
    const all = (await call(suite.server, 'GET', '/apis/storage.k8s.io/v1/csistoragecapacities?labelSelector=test%3Dcsc')).json();
    assert.deepEqual(all.items.map((c: { metadata: { name: string } }) => c.metadata.name), ['csc1']);
    const patched = await call(suite.server, 'PATCH', `${CAPACITIES}/csc1`, { body: { metadata: { annotations: { patched: 'true' } }, capacity: '5Gi' }, contentType: 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.body);
    assert.equal(patched.json().capacity, '5Gi');
  });

  it('needs a valid class name and a capacity of at least zero; the class and topology are immutable', async () => {
    const bad = await call(suite.server, 'POST', CAPACITIES, { body: capacity('bad', { storageClassName: 'Not_A_Class', capacity: '-1' }) });
    assert.deepEqual(causes(bad).map(([reason, field]) => [reason, field]), [['FieldValueInvalid', 'storageClassName'], ['FieldValueInvalid', 'capacity']]);
    const stored = (await call(suite.server, 'POST', CAPACITIES, { body: capacity('fixed', { nodeTopology: { matchLabels: { zone: 'a' } } }) })).json();
    const moved = await call(suite.server, 'PUT', `${CAPACITIES}/fixed`, { body: { ...stored, storageClassName: 'other', nodeTopology: { matchLabels: { zone: 'b' } } } });
    assert.deepEqual(causes(moved).map(([reason, field, message]) => [reason, field, message.endsWith('field is immutable')]), [['FieldValueInvalid', 'nodeTopology', true], ['FieldValueInvalid', 'storageClassName', true]]);
  });
});

// StorageClasses over HTTP as kube-apiserver v1.28 checks them: a provisioner is required, policies
// and binding modes are enums, and a stored class's provisioner, parameters, reclaim policy and
// binding mode never change.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const CLASSES = '/apis/storage.k8s.io/v1/storageclasses';
const storageClass = (name: string, more: Record<string, unknown> = {}) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'ebs.csi.aws.com', ...more });

describe('StorageClass validation', () => {
  it('a class without a provisioner, or with an unknown reclaim policy or binding mode, is a 422', async () => {
    const bare = storageClass('bare', { reclaimPolicy: 'Recycle', volumeBindingMode: 'Later' });
    delete (bare as Record<string, unknown>).provisioner;
    const r = await call(suite.server, 'POST', CLASSES, { body: bare });
    assert.deepEqual(causes(r), [
      ['FieldValueRequired', 'provisioner', 'Required value'],
      ['FieldValueNotSupported', 'reclaimPolicy', 'Unsupported value: "Recycle": supported values: "Delete", "Retain"'],
      ['FieldValueNotSupported', 'volumeBindingMode', 'Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"'],
    ]);
    assert.equal((await call(suite.server, 'GET', `${CLASSES}/bare`)).status, 404);
  });

  it('a provisioner must be a qualified name', async () => {
    const r = await call(suite.server, 'POST', CLASSES, { body: storageClass('odd', { provisioner: 'not a name' }) });
    assert.deepEqual(causes(r).map(([reason, field]) => [reason, field]), [['FieldValueInvalid', 'provisioner']]);
  });

  it('parameters, provisioner and reclaim policy are forbidden to change; the binding mode is immutable', async () => {
    const created = await call(suite.server, 'POST', CLASSES, { body: storageClass('fast', { parameters: { type: 'gp3' } }) });
    assert.equal(created.status, 201, created.body);
    const stored = created.json();
    const r = await call(suite.server, 'PUT', `${CLASSES}/fast`, {
      body: { ...stored, provisioner: 'pd.csi.storage.gke.io', parameters: { type: 'io2' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' },
    });
    assert.deepEqual(causes(r), [
      ['FieldValueForbidden', 'parameters', 'Forbidden: updates to parameters are forbidden.'],
      ['FieldValueForbidden', 'provisioner', 'Forbidden: updates to provisioner are forbidden.'],
      ['FieldValueForbidden', 'reclaimPolicy', 'Forbidden: updates to reclaimPolicy are forbidden.'],
      ['FieldValueInvalid', 'volumeBindingMode', 'Invalid value: "WaitForFirstConsumer": field is immutable'],
    ]);
    const labelled = await call(suite.server, 'PUT', `${CLASSES}/fast`, { body: { ...stored, metadata: { ...stored.metadata, labels: { tier: 'fast' } }, allowVolumeExpansion: true } });
    assert.equal(labelled.status, 200, 'labels and allowVolumeExpansion may change');
  });
});

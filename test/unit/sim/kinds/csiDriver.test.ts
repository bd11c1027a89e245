// CSIDrivers over HTTP as kube-apiserver v1.28 serves them: cluster-scoped under storage.k8s.io/v1,
// defaulted as SetDefaults_CSIDriver fills them, with enums checked and the attach, pod-info,
// fsGroup and lifecycle choices fixed once registered; a delete answers with the object.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const DRIVERS = '/apis/storage.k8s.io/v1/csidrivers';
const driver = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name, labels: { e2e: 'yes' } }, spec });

describe('CSIDriver', () => {
  it('is listed in storage.k8s.io/v1 discovery, cluster-scoped', async () => {
    const doc = (await call(suite.server, 'GET', '/apis/storage.k8s.io/v1')).json();
    const entry = doc.resources.find((r: { name: string }) => r.name === 'csidrivers');
    assert.equal(entry?.kind, 'CSIDriver');
    assert.equal(entry?.namespaced, false);
  });

  it('fills in the defaults of an empty spec', async () => {
    const created = await call(suite.server, 'POST', DRIVERS, { body: driver('inline.example.com') });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().spec, {
      attachRequired: true, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'], requiresRepublish: false, seLinuxMount: false,
    });
    assert.equal((await call(suite.server, 'POST', DRIVERS, { body: driver('inline.example.com') })).status, 409);
  });

  it('refuses unknown policies and modes, and changes to what is fixed', async () => {
    const bad = await call(suite.server, 'POST', DRIVERS, { body: driver('bad.example.com', { fsGroupPolicy: 'Sometimes', volumeLifecycleModes: ['Forever'] }) });
    assert.deepEqual(causes(bad), [
      ['FieldValueNotSupported', 'spec.fsGroupPolicy', 'Unsupported value: "Sometimes": supported values: "File", "None", "ReadWriteOnceWithFSType"'],
      ['FieldValueNotSupported', 'spec.volumeLifecycleModes', 'Unsupported value: "Forever": supported values: "Persistent", "Ephemeral"'],
    ]);
    const stored = (await call(suite.server, 'POST', DRIVERS, { body: driver('fixed.example.com', { volumeLifecycleModes: ['Ephemeral'] }) })).json();
    const changed = await call(suite.server, 'PUT', `${DRIVERS}/fixed.example.com`, { body: { ...stored, spec: { ...stored.spec, attachRequired: false, volumeLifecycleModes: ['Persistent', 'Ephemeral'] } } });
    assert.deepEqual(causes(changed).map(([reason, field]) => [reason, field]), [['FieldValueInvalid', 'spec.attachedRequired'], ['FieldValueInvalid', 'spec.volumeLifecycleModes']]);
    const relabelled = await call(suite.server, 'PUT', `${DRIVERS}/fixed.example.com`, { body: { ...stored, metadata: { ...stored.metadata, labels: { updated: 'yes' } } } });
    assert.equal(relabelled.status, 200, relabelled.body);
  });

  it('answers a delete with the deleted driver, and deletes collections by label', async () => {
    await call(suite.server, 'POST', DRIVERS, { body: driver('gone.example.com') });
    const deleted = await call(suite.server, 'DELETE', `${DRIVERS}/gone.example.com`);
    assert.equal(deleted.json().kind, 'CSIDriver');
    assert.equal((await call(suite.server, 'DELETE', `${DRIVERS}?labelSelector=e2e%3Dyes`)).status, 200);
    assert.deepEqual((await call(suite.server, 'GET', `${DRIVERS}?labelSelector=e2e%3Dyes`)).json().items, []);
  });
});

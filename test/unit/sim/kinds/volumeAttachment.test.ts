// VolumeAttachments over HTTP as kube-apiserver v1.28 serves them: discovery, the attach request's
// rules, a spec that never changes, and kubectl's columns.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const VAS = '/apis/storage.k8s.io/v1/volumeattachments';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const attachment = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name }, spec });

describe('VolumeAttachment', () => {
  it('is served in storage.k8s.io/v1 with its status', async () => {
    const resources = (await call(suite.server, 'GET', '/apis/storage.k8s.io/v1')).json().resources.map((r: { name: string }) => r.name);
    assert.ok(resources.includes('volumeattachments'));
    assert.ok(resources.includes('volumeattachments/status'));
  });

  it('stores an attach request, not attached until the attacher says so, and prints it as kubectl get does', async () => {
    const created = await call(suite.server, 'POST', VAS, { body: attachment('csi-1', { attacher: 'ebs.csi.aws.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } }) });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().status, { attached: false });
    const table = (await call(suite.server, 'GET', `${VAS}/csi-1`, { accept: TABLE })).json();
    assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age']);
    assert.deepEqual(table.rows[0].cells.slice(0, 5), ['csi-1', 'ebs.csi.aws.com', 'pv-1', 'node-1', false]);
  });

  it('refuses a request without an attacher or a source, and one naming two sources', async () => {
    const none = await call(suite.server, 'POST', VAS, { body: attachment('csi-2', { nodeName: 'node-1' }) });
    assert.deepEqual(causes(none).map(([reason, field]) => [reason, field]), [
      ['FieldValueRequired', 'spec.attacher'],
      ['FieldValueRequired', 'spec.source'],
      ['FieldValueRequired', 'spec.attacher'],
      ['FieldValueInvalid', 'spec.attacher'],
    ]);
    const both = await call(suite.server, 'POST', VAS, { body: attachment('csi-3', { attacher: 'a.example.com', nodeName: 'n', source: { persistentVolumeName: 'pv', inlineVolumeSpec: { csi: { driver: 'a.example.com', volumeHandle: 'h' } } } }) });
    assert.deepEqual(causes(both), [['FieldValueForbidden', 'spec.source', 'Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName']]);
  });

  it('keeps its spec: an update that changes it is refused', async () => {
    await call(suite.server, 'POST', VAS, { body: attachment('csi-4', { attacher: 'ebs.csi.aws.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-4' } }) });
    const r = await call(suite.server, 'PATCH', `${VAS}/csi-4`, { body: { spec: { nodeName: 'node-2' } }, contentType: 'application/merge-patch+json' });
    assert.deepEqual(causes(r).map(([reason, field]) => [reason, field]), [['FieldValueInvalid', 'spec']]);
  });
});

// CSINodes over HTTP as kube-apiserver v1.28 checks them: each driver once, with a node ID, and
// topology keys that are qualified names.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const CSINODES = '/apis/storage.k8s.io/v1/csinodes';
const csiNode = (name: string, drivers: unknown[]) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name }, spec: { drivers } });

describe('CSINode', () => {
  it('stores the drivers a node registered', async () => {
    const created = await call(suite.server, 'POST', CSINODES, { body: csiNode('node-1', [{ name: 'ebs.csi.aws.com', nodeID: 'i-123', topologyKeys: ['topology.ebs.csi.aws.com/zone'] }]) });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().spec.drivers[0].nodeID, 'i-123');
  });

  it('refuses a driver without a node ID, a driver twice and a key that is no qualified name', async () => {
    const r = await call(suite.server, 'POST', CSINODES, { body: csiNode('node-2', [{ name: 'a.example.com', nodeID: 'n' }, { name: 'a.example.com', topologyKeys: ['not a key'] }]) });
    assert.deepEqual(causes(r).map(([reason, field]) => [reason, field]), [
      ['FieldValueRequired', 'spec.drivers[1].nodeID'],
      ['FieldValueDuplicate', 'spec.drivers[1].name'],
      ['FieldValueInvalid', 'spec.drivers[1]'],
    ]);
  });
});

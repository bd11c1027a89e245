// Nodes over HTTP as kube-apiserver v1.28 checks what a client writes in their spec.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const NODES = '/api/v1/nodes';
const node = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec });

describe('Node validation', () => {
  it('taints need a known effect, a valid key and are unique by key and effect (reported under metadata.taints, as the server does)', async () => {
    const r = await call(suite.server, 'POST', NODES, {
      body: node('tainted', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoRun' }, { key: 'bad key', effect: 'NoSchedule' }, { key: 'gpu' }, { key: 'spot', effect: 'NoSchedule' }, { key: 'spot', effect: 'NoSchedule' }] }),
    });
    const got = causes(r);
    assert.deepEqual(got.map(([reason, field]) => [reason, field]), [
      ['FieldValueNotSupported', 'metadata.taints[0].effect'],
      ['FieldValueInvalid', 'metadata.taints[1].key'],
      ['FieldValueRequired', 'metadata.taints[2].effect'],
      ['FieldValueDuplicate', 'metadata.taints[4]'],
    ]);
    assert.equal(got[0]![2], 'Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"');
    assert.equal(got[3]![2], 'Duplicate value: core.Taint{Key:"spot", Value:"", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair');
  });

  it('pod CIDRs and the provider ID stay as first set', async () => {
    const created = await call(suite.server, 'POST', NODES, { body: node('worker', { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], providerID: 'kind://docker/worker' }) });
    assert.equal(created.status, 201, created.body);
    const stored = created.json();
    const r = await call(suite.server, 'PUT', `${NODES}/worker`, { body: { ...stored, spec: { ...stored.spec, podCIDRs: ['10.244.2.0/24'], providerID: 'kind://docker/other' } } });
    assert.deepEqual(causes(r), [
      ['FieldValueForbidden', 'spec.podCIDRs', 'Forbidden: node updates may not change podCIDR except from "" to valid'],
      ['FieldValueForbidden', 'spec.providerID', 'Forbidden: node updates may not change providerID except from "" to valid'],
    ]);
    const cordoned = await call(suite.server, 'PUT', `${NODES}/worker`, { body: { ...stored, spec: { ...stored.spec, unschedulable: true } } });
    assert.equal(cordoned.status, 200, 'cordoning is an allowed update');
  });
});

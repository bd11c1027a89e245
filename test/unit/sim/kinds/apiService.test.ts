// APIServices over HTTP as kube-aggregator v1.28 checks them: named `<version>.<group>`, priorities
// in range, a service reference complete (its port defaulted to 443), and no CA bundle on a local one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
const apiService = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name }, spec });

describe('APIService', () => {
  it('is stored with its service port defaulted', async () => {
    const created = await call(suite.server, 'POST', APISERVICES, {
      body: apiService('v1alpha1.wardle.example.com', { group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 2000, versionPriority: 200, service: { namespace: 'sample', name: 'api' } }),
    });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().spec.service, { namespace: 'sample', name: 'api', port: 443 });
  });

  it('refuses a name that is not version.group, priorities out of range and a local CA bundle', async () => {
    const r = await call(suite.server, 'POST', APISERVICES, { body: apiService('wrong', { group: 'g.example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 1001, caBundle: 'AAEC' }) });
    assert.deepEqual(causes(r), [
      ['FieldValueInvalid', 'metadata.name', 'Invalid value: "wrong": must be `spec.version+"."+spec.group`: "v1.g.example.com"'],
      ['FieldValueInvalid', 'spec.groupPriorityMinimum', 'Invalid value: 0: must be positive and less than 20000'],
      ['FieldValueInvalid', 'spec.versionPriority', 'Invalid value: 1001: must be positive and less than 1000'],
      ['FieldValueInvalid', 'spec.caBundle', 'Invalid value: "3 bytes": local APIServices may not have a caBundle'],
    ]);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// A LimitRange is validated as kube-apiserver validates it — after its defaults (a missing default
// is the max, a missing default request the default) — and each cause quotes the quantity as Go
// prints a resource.Quantity, which is what clients see from the real server.

const suite = suiteServer();
const LIMITS = '/api/v1/namespaces/default/limitranges';
const limitRange = (name: string, limit: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits: [{ type: 'Container', ...limit }] } });

describe('LimitRange validation', () => {
  it('min above max, and so above the defaults taken from max', async () => {
    const r = await call(suite.server, 'POST', LIMITS, { body: limitRange('inverted', { min: { cpu: '2' }, max: { cpu: '1' } }) });
    assert.equal(r.status, 422, r.body);
    const q = (n: number) => `resource.Quantity{i:resource.int64Amount{value:${n}, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"${n}", Format:"DecimalSI"}`;
    assert.equal(r.json().message, `LimitRange "inverted" is invalid: [spec.limits[0].min[cpu]: Invalid value: ${q(2)}: min value 2 is greater than max value 1, spec.limits[0].defaultRequest[cpu]: Invalid value: ${q(1)}: min value 2 is greater than default request value 1, spec.limits[0].default[cpu]: Invalid value: ${q(2)}: min value 2 is greater than default value 1]`);
  });

  it('quantities are compared as amounts and printed as Go holds them', async () => {
    const r = await call(suite.server, 'POST', LIMITS, { body: limitRange('memory', { defaultRequest: { memory: '2Gi' }, max: { memory: '1024Mi' } }) });
    assert.equal(r.status, 422, r.body);
    const causes = r.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
    assert.ok(causes.includes('spec.limits[0].defaultRequest[memory]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2147483648, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2Gi", Format:"BinarySI"}: default request value 2Gi is greater than max value 1Gi'), causes.join('\n'));
  });

  it('a consistent LimitRange is stored', async () => {
    const r = await call(suite.server, 'POST', LIMITS, { body: limitRange('fine', { min: { cpu: '100m' }, max: { cpu: '2' }, defaultRequest: { cpu: '500m' } }) });
    assert.equal(r.status, 201, r.body);
  });
});

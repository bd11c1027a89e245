// A ResourceQuota counting a custom resource (`count/<plural>.<group>`): its usage comes back as
// soon as one is deleted, as kube-controller-manager's quota monitors watch what quotas count,
// not at the controller's five-minute resync (the e2e "capture the life of a custom resource").
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { httpWorkloadLab } from './httpWorkloadLab.ts';

const lab = httpWorkloadLab();
const WIDGETS = '/apis/quota.example.com/v1/namespaces/default/widgets';
const QUOTAS = '/api/v1/namespaces/default/resourcequotas';
const COUNT = 'count/widgets.quota.example.com';

interface QuotaJson { status?: { used?: Record<string, string> } }

describe('a quota on a custom resource', () => {
  before(async () => {
    const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
    const crd = await call(lab.server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.quota.example.com' },
        spec: { group: 'quota.example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' }, versions: [{ name: 'v1', served: true, storage: true, schema }] },
      },
    });
    assert.equal(crd.status, 201, crd.body);
    await lab.until<{ status?: { conditions?: { type: string; status: string }[] } }>('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.quota.example.com', (c) => c.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True') === true);
  });

  it('releases the usage of a deleted one within a second', async () => {
    assert.equal((await call(lab.server, 'POST', QUOTAS, { body: { metadata: { name: 'widgets' }, spec: { hard: { [COUNT]: '1' } } } })).status, 201);
    await lab.until<QuotaJson>(`${QUOTAS}/widgets`, (q) => q.status?.used?.[COUNT] === '0');
    assert.equal((await call(lab.server, 'POST', WIDGETS, { body: { apiVersion: 'quota.example.com/v1', kind: 'Widget', metadata: { name: 'w1' } } })).status, 201);
    await lab.until<QuotaJson>(`${QUOTAS}/widgets`, (q) => q.status?.used?.[COUNT] === '1');
    const refused = await call(lab.server, 'POST', WIDGETS, { body: { apiVersion: 'quota.example.com/v1', kind: 'Widget', metadata: { name: 'w2' } } });
    assert.equal(refused.status, 403, 'the quota holds');
    // Let every write and its follow-ups settle first: only the delete is left to notice.
    for (let i = 0; i < 100; i++) {
      lab.clock.step(100);
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal((await call(lab.server, 'DELETE', `${WIDGETS}/w1`)).status, 200);
    await lab.until<QuotaJson>(`${QUOTAS}/widgets`, (q) => q.status?.used?.[COUNT] === '0', 1_000);
  });
});

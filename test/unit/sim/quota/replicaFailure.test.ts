import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespace, quota, quotaServer } from './quotaServer.ts';

// A ReplicaSet whose Pods a quota refuses says so: a ReplicaFailure condition (FailedCreate, with
// the API server's message) and a FailedCreate event, gone once it fits the quota again.

const q = quotaServer({ workloads: true });
type Condition = { type: string; status: string; reason: string; message: string };

test('a ReplicaSet over its pod quota gets ReplicaFailure, and loses it when scaled to fit', async () => {
  const ns = await namespace(q, 'rs-quota');
  await q.send('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota('condition-test', { pods: '2' }));
  await q.until(`/api/v1/namespaces/${ns}/resourcequotas/condition-test`, (o) => o.status?.used?.pods === '0');
  const rs = {
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web' },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'httpd:2.4' }] } } },
  };
  const path = `/apis/apps/v1/namespaces/${ns}/replicasets/web`;
  assert.equal((await q.send('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, rs)).status, 201);
  const failed = await q.until(path, (o) => (o.status?.conditions ?? []).some((c: Condition) => c.type === 'ReplicaFailure'));
  const condition = failed.status.conditions.find((c: Condition) => c.type === 'ReplicaFailure');
  assert.equal(condition.status, 'True');
  assert.equal(condition.reason, 'FailedCreate');
  assert.match(condition.message, /^pods "web-[a-z0-9]{5}" is forbidden: exceeded quota: condition-test, requested: pods=1, used: pods=2, limited: pods=2$/);
  assert.equal((await q.send('GET', `/api/v1/namespaces/${ns}/pods`)).json().items.length, 2);
  const events = (await q.send('GET', `/api/v1/namespaces/${ns}/events`)).json().items as { reason: string; type: string }[];
  assert.ok(events.some((e) => e.reason === 'FailedCreate' && e.type === 'Warning'));

  assert.equal((await q.send('PATCH', path, { spec: { replicas: 2 } }, 'application/merge-patch+json')).status, 200);
  await q.until(path, (o) => !(o.status?.conditions ?? []).some((c: Condition) => c.type === 'ReplicaFailure'));
});

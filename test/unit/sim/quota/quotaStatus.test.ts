import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespace, pod, quota, quotaServer } from './quotaServer.ts';

// With the workload simulation, the quota controller writes each ResourceQuota's status: hard
// from the spec, used counted from the namespace's objects, recounted as they come and go.

const q = quotaServer({ workloads: true });
const quotaPath = (ns: string, name: string): string => `/api/v1/namespaces/${ns}/resourcequotas/${name}`;
type Quota = { status?: { hard?: Record<string, string>; used?: Record<string, string> } };
const usedIs = (expected: Record<string, string>) => (o: Quota): boolean => Object.entries(expected).every(([k, v]) => o.status?.used?.[k] === v);

test('a new quota has its hard and used filled in at once, counting itself and the objects already there', async () => {
  const ns = await namespace(q, 'quota-counts');
  assert.equal((await q.send('POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before' } })).status, 201);
  const hard = { resourcequotas: '1', configmaps: '10', 'count/replicasets.apps': '5', services: '10', pods: '5', cpu: '1', 'example.com/unmeasured': '3' };
  assert.equal((await q.send('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota('test-quota', hard))).status, 201);
  const status = (await q.until(quotaPath(ns, 'test-quota'), (o: Quota) => o.status?.used !== undefined)).status;
  assert.deepEqual(status.hard, hard);
  assert.deepEqual(status.used, { configmaps: '1', 'count/replicasets.apps': '0', cpu: '0', pods: '0', resourcequotas: '1', services: '0' }, 'what no evaluator measures is left out');
});

test('used follows pods, services and replica sets as they are created and deleted', async () => {
  const ns = await namespace(q, 'quota-life');
  await q.send('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota('test-quota', { pods: '5', cpu: '2', memory: '1Gi', 'requests.example.com/dongle': '3', services: '3', 'services.nodeports': '2', 'count/replicasets.apps': '2' }));
  await q.until(quotaPath(ns, 'test-quota'), usedIs({ pods: '0', services: '0' }));
  assert.equal((await q.send('POST', `/api/v1/namespaces/${ns}/pods`, pod('p', { requests: { cpu: '500m', memory: '252Mi', 'example.com/dongle': '2' }, limits: { 'example.com/dongle': '2' } }))).status, 201);
  assert.equal((await q.send('POST', `/api/v1/namespaces/${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } })).status, 201);
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' }, spec: { replicas: 0, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } } } };
  assert.equal((await q.send('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, rs)).status, 201);
  await q.until(quotaPath(ns, 'test-quota'), usedIs({ pods: '1', cpu: '500m', memory: '252Mi', 'requests.example.com/dongle': '2', services: '1', 'services.nodeports': '1', 'count/replicasets.apps': '1' }));

  await q.send('DELETE', `/api/v1/namespaces/${ns}/pods/p`, { gracePeriodSeconds: 0 });
  await q.send('DELETE', `/api/v1/namespaces/${ns}/services/np`);
  await q.send('DELETE', `/apis/apps/v1/namespaces/${ns}/replicasets/rs`);
  await q.until(quotaPath(ns, 'test-quota'), usedIs({ pods: '0', cpu: '0', memory: '0', 'requests.example.com/dongle': '0', services: '0', 'services.nodeports': '0', 'count/replicasets.apps': '0' }));
});

async function scopedQuotas(ns: string, scopes: string[], hard: Record<string, string>): Promise<void> {
  for (const scope of scopes) {
    const name = scope.toLowerCase();
    assert.equal((await q.send('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota(name, hard, [scope]))).status, 201);
    // Counted first, so that the quota limits the pods below as it will in a running cluster.
    await q.until(quotaPath(ns, name), usedIs({ pods: '0' }));
  }
}

async function created(ns: string, body: Record<string, unknown>): Promise<void> {
  const answer = await q.send('POST', `/api/v1/namespaces/${ns}/pods`, body);
  assert.equal(answer.status, 201, answer.body);
}

test('BestEffort and NotBestEffort quotas count only the pods of their QoS', async () => {
  const ns = await namespace(q, 'quota-qos');
  await scopedQuotas(ns, ['BestEffort', 'NotBestEffort'], { pods: '5' });
  await created(ns, pod('best-effort'));
  await created(ns, pod('burstable', { requests: { memory: '100Mi' } }));
  await created(ns, pod('burstable-2', { limits: { cpu: '1' } }));
  await q.until(quotaPath(ns, 'besteffort'), usedIs({ pods: '1' }));
  await q.until(quotaPath(ns, 'notbesteffort'), usedIs({ pods: '2' }));
});

test('Terminating and NotTerminating quotas tell pods by their activeDeadlineSeconds', async () => {
  const ns = await namespace(q, 'quota-deadline');
  await scopedQuotas(ns, ['Terminating', 'NotTerminating'], { pods: '5', 'requests.cpu': '1', 'limits.cpu': '2' });
  const cpu = { requests: { cpu: '500m' }, limits: { cpu: '1' } };
  await created(ns, pod('deadline', cpu, { activeDeadlineSeconds: 3600 }));
  await q.until(quotaPath(ns, 'terminating'), usedIs({ pods: '1', 'requests.cpu': '500m', 'limits.cpu': '1' }));
  await q.until(quotaPath(ns, 'notterminating'), usedIs({ pods: '0', 'requests.cpu': '0', 'limits.cpu': '0' }));
  await created(ns, pod('long-running', { requests: { cpu: '250m' }, limits: { cpu: '500m' } }));
  await q.until(quotaPath(ns, 'notterminating'), usedIs({ pods: '1', 'requests.cpu': '250m', 'limits.cpu': '500m' }));
});

test('a status written by hand is put back to the spec by the controller', async () => {
  const ns = await namespace(q, 'quota-reset');
  await q.send('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota('rq', { cpu: '1', memory: '1Gi' }));
  await q.until(quotaPath(ns, 'rq'), usedIs({ cpu: '0' }));
  const patched = await q.send('PATCH', `${quotaPath(ns, 'rq')}/status`, { status: { hard: { cpu: '2', memory: '2Gi' } } }, 'application/strategic-merge-patch+json');
  assert.equal(patched.status, 200);
  assert.deepEqual(patched.json().status.hard, { cpu: '2', memory: '2Gi' }, 'the /status write itself is applied');
  await q.until(quotaPath(ns, 'rq'), (o: Quota) => o.status?.hard?.cpu === '1' && o.status.hard.memory === '1Gi');
});

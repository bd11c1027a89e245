import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespace, pod, quota, quotaServer, type QuotaServer } from './quotaServer.ts';

// The API server's ResourceQuota admission, with no quota controller running: a quota limits what
// its status.hard names, and must have usage in status before it admits any of it; a write over status.hard is refused with
// kube-apiserver's words; an admitted one raises status.used itself.

const q = quotaServer({ workloads: false });
type Quota = { status?: { hard?: Record<string, string>; used?: Record<string, string> } };

function service(name: string, type: string): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type, ports: [{ port: 80 }] } };
}

/** Writes the quota's status as a quota controller would: hard from spec, used as given. */
async function counted(server: QuotaServer, ns: string, name: string, used: Record<string, string>): Promise<void> {
  const path = `/api/v1/namespaces/${ns}/resourcequotas/${name}`;
  const current = (await server.send('GET', path)).json();
  current.status = { hard: current.spec.hard, used };
  const answer = await server.send('PUT', `${path}/status`, current);
  assert.equal(answer.status, 200, answer.body);
}

const usedOf = async (ns: string, name: string): Promise<Record<string, string> | undefined> =>
  ((await q.send('GET', `/api/v1/namespaces/${ns}/resourcequotas/${name}`)).json() as Quota).status?.used;

test('a quota limits only once it has status.hard, and refuses what it limits until it has usage for it', async () => {
  const ns = await namespace(q, 'uncounted');
  await q.send('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota('q', { services: '10', configmaps: '1' }));
  assert.equal((await q.send('POST', `/api/v1/namespaces/${ns}/services`, service('before', 'ClusterIP'))).status, 201, 'no status.hard yet: nothing is limited');
  const path = `/api/v1/namespaces/${ns}/resourcequotas/q/status`;
  const current = (await q.send('GET', path)).json();
  current.status = { hard: current.spec.hard, used: { configmaps: '0' } };
  assert.equal((await q.send('PUT', path, current)).status, 200);
  const refused = await q.send('POST', `/api/v1/namespaces/${ns}/services`, service('a', 'ClusterIP'));
  assert.equal(refused.status, 403);
  assert.equal(refused.json().message, 'services "a" is forbidden: status unknown for quota: q, resources: services');
  const secret = await q.send('POST', `/api/v1/namespaces/${ns}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
  assert.equal(secret.status, 201, 'what the quota does not limit is admitted');
});

test('a create over the remaining quota is refused, naming what it asked, what is used and the limit', async () => {
  const ns = await namespace(q, 'over');
  await q.send('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota('q', { services: '10', 'services.nodeports': '1', 'services.loadbalancers': '1' }));
  await counted(q, ns, 'q', { services: '0', 'services.nodeports': '0', 'services.loadbalancers': '0' });
  assert.equal((await q.send('POST', `/api/v1/namespaces/${ns}/services`, service('ip', 'ClusterIP'))).status, 201);
  assert.equal((await q.send('POST', `/api/v1/namespaces/${ns}/services`, service('np', 'NodePort'))).status, 201);
  assert.deepEqual(await usedOf(ns, 'q'), { services: '2', 'services.loadbalancers': '0', 'services.nodeports': '1' }, 'admission raised used itself');
  const refused = await q.send('POST', `/api/v1/namespaces/${ns}/services`, service('lb', 'LoadBalancer'));
  assert.equal(refused.status, 403);
  assert.equal(refused.json().reason, 'Forbidden');
  assert.equal(refused.json().message, 'services "lb" is forbidden: exceeded quota: q, requested: services.nodeports=1, used: services.nodeports=1, limited: services.nodeports=1');
  assert.equal((await q.send('GET', `/api/v1/namespaces/${ns}/services/lb`)).status, 404);
});

test('a dry run is weighed but charges nothing', async () => {
  const ns = await namespace(q, 'dry');
  await q.send('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota('q', { configmaps: '1' }));
  await counted(q, ns, 'q', { configmaps: '0' });
  const cm = (name: string): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  assert.equal((await q.send('POST', `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, cm('dry'))).status, 201);
  assert.deepEqual(await usedOf(ns, 'q'), { configmaps: '0' });
  assert.equal((await q.send('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('one'))).status, 201);
  const second = await q.send('POST', `/api/v1/namespaces/${ns}/configmaps`, cm('two'));
  assert.equal(second.status, 403);
  assert.match(second.json().message, /exceeded quota: q, requested: configmaps=1, used: configmaps=1, limited: configmaps=1$/);
});

test('a quota of cpu or memory asks every container to state them', async () => {
  const ns = await namespace(q, 'must-specify');
  await q.send('POST', `/api/v1/namespaces/${ns}/resourcequotas`, quota('q', { cpu: '1', 'limits.memory': '1Gi', pods: '2' }));
  await counted(q, ns, 'q', { cpu: '0', 'limits.memory': '0', pods: '0' });
  const refused = await q.send('POST', `/api/v1/namespaces/${ns}/pods`, pod('bare'));
  assert.equal(refused.status, 403);
  assert.equal(refused.json().message, 'pods "bare" is forbidden: failed quota: q: must specify cpu for: c; limits.memory for: c');
  const fits = await q.send('POST', `/api/v1/namespaces/${ns}/pods`, pod('fits', { requests: { cpu: '600m' }, limits: { memory: '512Mi' } }));
  assert.equal(fits.status, 201, fits.body);
  assert.deepEqual(await usedOf(ns, 'q'), { cpu: '600m', 'limits.memory': '512Mi', pods: '1' });
  const over = await q.send('POST', `/api/v1/namespaces/${ns}/pods`, pod('over', { requests: { cpu: '500m' }, limits: { memory: '512Mi' } }));
  assert.equal(over.status, 403);
  assert.equal(over.json().message, 'pods "over" is forbidden: exceeded quota: q, requested: cpu=500m, used: cpu=600m, limited: cpu=1');
});

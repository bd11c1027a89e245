import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { CM, DEPLOY, NS, PODS, configMap, newCluster } from './helpers.ts';

const code = (c: number, reason?: string) => (e: unknown): boolean => e instanceof ApiError && e.code === c && (reason === undefined || e.reason === reason);

function deployment(name: string, replicas = 1, image = 'nginx:1'): KubeObject {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image }] } } },
  };
}

test('create assigns uid, creationTimestamp, generation 1 and a resourceVersion, and freezes what it stores', () => {
  const { cluster, clock } = newCluster();
  const cm = cluster.create(DEPLOY, 'default', deployment('a'));
  const m = cm.object.metadata;
  assert.match(m.uid ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(m.creationTimestamp, new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  assert.equal(m.generation, 1);
  assert.equal(m.namespace, 'default');
  assert.equal(m.resourceVersion, String(cluster.resourceVersion));
  assert.equal(cm.object.kind, 'Deployment');
  assert.ok(Object.isFrozen(cm.object.metadata));
});

test('generateName makes a name with a five-character suffix', () => {
  const { cluster } = newCluster();
  const cm = cluster.create(CM, 'default', { metadata: { generateName: 'job-' }, data: {} });
  assert.match(cm.object.metadata.name ?? '', /^job-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
});

test('creating an existing name is 409 AlreadyExists with the real message', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  assert.throws(() => cluster.create(CM, 'default', configMap('a')), (e: unknown) =>
    code(409, 'AlreadyExists')(e) && (e as ApiError).message === 'configmaps "a" already exists');
  cluster.create(DEPLOY, 'default', deployment('web'));
  assert.throws(() => cluster.create(DEPLOY, 'default', deployment('web')), (e: unknown) => (e as ApiError).message === 'deployments.apps "web" already exists');
});

test('creating in a missing namespace is 404 NotFound; in a terminating one 403 Forbidden', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.create(CM, 'nope', configMap('a')), (e: unknown) => code(404, 'NotFound')(e) && (e as ApiError).message === 'namespaces "nope" not found');
  cluster.create(NS, '', { metadata: { name: 'held' } });
  cluster.create(CM, 'held', { ...configMap('blocker'), metadata: { name: 'blocker', finalizers: ['x/y'] } });
  cluster.delete(NS, '', 'held');
  assert.throws(() => cluster.create(CM, 'held', configMap('b')), code(403, 'Forbidden'));
});

test('invalid names are 422 Invalid with causes (subdomain for most kinds, label for namespaces)', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.create(CM, 'default', configMap('Not_Valid')), (e: unknown) => {
    const err = e as ApiError;
    return code(422, 'Invalid')(e) && err.status?.details?.causes?.[0]?.field === 'metadata.name' && /RFC 1123 subdomain/.test(err.message);
  });
  assert.throws(() => cluster.create(NS, '', { metadata: { name: 'a.b' } }), (e: unknown) => code(422)(e) && /RFC 1123 label/.test((e as ApiError).message));
  assert.throws(() => cluster.create(CM, 'default', { metadata: {}, data: {} }), code(422, 'Invalid'));
});

test('a body namespace that differs from the URL, or a wrong kind, is a 400', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.create(CM, 'default', { ...configMap('a'), metadata: { name: 'a', namespace: 'kube-system' } }), code(400));
  assert.throws(() => cluster.create(CM, 'default', { ...configMap('a'), kind: 'Secret' }), code(400));
});

test('update with a stale resourceVersion is 409 Conflict; without one it is unconditional', () => {
  const { cluster } = newCluster();
  const v1 = cluster.create(CM, 'default', configMap('a'));
  const v2 = cluster.update(CM, 'default', 'a', { ...configMap('a', undefined, { k: '2' }), metadata: { name: 'a', resourceVersion: v1.object.metadata.resourceVersion } });
  assert.throws(() => cluster.update(CM, 'default', 'a', { ...configMap('a', undefined, { k: '3' }), metadata: { name: 'a', resourceVersion: v1.object.metadata.resourceVersion } }),
    (e: unknown) => code(409, 'Conflict')(e) && (e as ApiError).message === 'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again');
  const v3 = cluster.update(CM, 'default', 'a', configMap('a', undefined, { k: '3' }));
  assert.ok(v3.resourceVersion > v2.resourceVersion);
  assert.equal(v3.object.metadata.uid, v1.object.metadata.uid);
  assert.equal(v3.object.metadata.creationTimestamp, v1.object.metadata.creationTimestamp);
});

test('update of a missing object is 404; a name differing from the URL is 400', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.update(CM, 'default', 'ghost', configMap('ghost')), code(404, 'NotFound'));
  cluster.create(CM, 'default', configMap('a'));
  assert.throws(() => cluster.update(CM, 'default', 'a', configMap('b')), code(400));
});

test('kinds without a generation (ConfigMaps) keep the one they were created with, whatever later writes say, like the real server', () => {
  const { cluster } = newCluster();
  const created = cluster.create(CM, 'default', { ...configMap('a'), metadata: { name: 'a', generation: 7 } });
  assert.equal(created.object.metadata.generation, 7);
  const changed = cluster.patch(CM, 'default', 'a', 'merge', { data: { k: 'changed' }, metadata: { generation: 9 } });
  assert.equal(changed.object.metadata.generation, 7);
  const none = cluster.create(CM, 'default', configMap('b'));
  assert.equal(cluster.patch(CM, 'default', 'b', 'merge', { metadata: { generation: 9 } }).object.metadata.generation, undefined);
  assert.equal(none.object.metadata.generation, undefined);
});

test('generation bumps on spec changes only, not on metadata or status', () => {
  const { cluster } = newCluster();
  cluster.create(DEPLOY, 'default', deployment('web'));
  const labelled = cluster.patch(DEPLOY, 'default', 'web', 'merge', { metadata: { labels: { tier: 'front' } } });
  assert.equal(labelled.object.metadata.generation, 1);
  const status = cluster.patch(DEPLOY, 'default', 'web', 'merge', { status: { replicas: 1 } }, 'status');
  assert.equal(status.object.metadata.generation, 1);
  const scaled = cluster.patch(DEPLOY, 'default', 'web', 'merge', { spec: { replicas: 3 } });
  assert.equal(scaled.object.metadata.generation, 2);
});

test('a write that changes nothing keeps the resourceVersion (no event)', () => {
  const { cluster } = newCluster();
  const a = cluster.create(CM, 'default', configMap('a'));
  const same = cluster.patch(CM, 'default', 'a', 'merge', { data: { k: 'v' } });
  assert.equal(same.resourceVersion, a.resourceVersion);
  assert.equal(cluster.resourceVersion, a.resourceVersion);
});

test('/status writes change only status; main-resource writes cannot change status of kinds that have /status', () => {
  const { cluster } = newCluster();
  cluster.create(DEPLOY, 'default', deployment('web'));
  const s = cluster.update(DEPLOY, 'default', 'web', { ...deployment('web', 9), status: { replicas: 1, readyReplicas: 1 } }, 'status');
  assert.deepEqual(s.object.status, { replicas: 1, readyReplicas: 1 });
  assert.equal((s.object.spec as { replicas: number }).replicas, 1, 'spec ignored by /status');
  const m = cluster.update(DEPLOY, 'default', 'web', { ...deployment('web', 2), status: { readyReplicas: 7 } });
  assert.deepEqual(m.object.status, { replicas: 1, readyReplicas: 1 }, 'status ignored by the main resource');
  assert.equal((m.object.spec as { replicas: number }).replicas, 2);
  assert.throws(() => cluster.update(CM, 'default', 'x', configMap('x'), 'status'), code(404));
});

test('pods start Pending with their QoS class; status on create is emptied for kinds with /status (Go prints the empty struct)', () => {
  const { cluster } = newCluster();
  const p = cluster.create(PODS, 'default', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] }, status: { phase: 'Running' } });
  assert.deepEqual(p.object.status, { phase: 'Pending', qosClass: 'BestEffort' });
  const d = cluster.create(DEPLOY, 'default', { ...deployment('web'), status: { replicas: 5 } });
  assert.deepEqual(d.object.status, {}, 'an empty status, as the API server writes a built-in kind\'s');
});

test('/scale reads and writes replicas as an autoscaling/v1 Scale (kubectl scale patches it)', () => {
  const { cluster } = newCluster();
  cluster.create(DEPLOY, 'default', deployment('web', 2));
  const scale = cluster.get(DEPLOY, 'default', 'web', 'scale').object;
  assert.equal(scale.kind, 'Scale');
  assert.equal(scale.apiVersion, 'autoscaling/v1');
  assert.deepEqual(scale.spec, { replicas: 2 });
  assert.deepEqual(scale.status, { replicas: 0, selector: 'app=web' });
  const patched = cluster.patch(DEPLOY, 'default', 'web', 'merge', { spec: { replicas: 4 } }, 'scale');
  assert.deepEqual(patched.object.spec, { replicas: 4 });
  const d = cluster.get(DEPLOY, 'default', 'web').object;
  assert.equal((d.spec as { replicas: number }).replicas, 4);
  assert.equal(d.metadata.generation, 2);
  cluster.update(DEPLOY, 'default', 'web', { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 1 } }, 'scale');
  assert.equal((cluster.get(DEPLOY, 'default', 'web').object.spec as { replicas: number }).replicas, 1);
  assert.throws(() => cluster.patch(DEPLOY, 'default', 'web', 'merge', { spec: { replicas: -1 } }, 'scale'), code(422));
  assert.throws(() => cluster.get(CM, 'default', 'web', 'scale'), code(404));
});

test('patch with a stale metadata.resourceVersion is a 409 Conflict', () => {
  const { cluster } = newCluster();
  const a = cluster.create(CM, 'default', configMap('a'));
  cluster.patch(CM, 'default', 'a', 'merge', { data: { k: '2' } });
  assert.throws(() => cluster.patch(CM, 'default', 'a', 'merge', { metadata: { resourceVersion: a.object.metadata.resourceVersion }, data: { k: '3' } }), code(409, 'Conflict'));
});

test('dryRun answers as if written and changes nothing', () => {
  const { cluster } = newCluster();
  const rv = cluster.resourceVersion;
  const dry = cluster.create(CM, 'default', configMap('a'), { dryRun: true });
  assert.equal(dry.object.metadata.name, 'a');
  assert.equal(cluster.resourceVersion, rv);
  assert.throws(() => cluster.get(CM, 'default', 'a'), code(404));
});

test('unknown resources are 404 "the server could not find the requested resource"', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.list({ group: '', version: 'v1', resource: 'widgets' }, {}), (e: unknown) =>
    code(404)(e) && (e as ApiError).message === 'the server could not find the requested resource');
});

test('an apply patch creates a missing object and merges into an existing one by merge keys', () => {
  const { cluster } = newCluster();
  const applied = cluster.patch(DEPLOY, 'default', 'web', 'apply', deployment('web', 2, 'nginx:1'));
  assert.equal(applied.object.metadata.generation, 1);
  cluster.patch(DEPLOY, 'default', 'web', 'strategic', { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'envoy' }] } } } });
  const again = cluster.patch(DEPLOY, 'default', 'web', 'apply', deployment('web', 3, 'nginx:2'));
  const containers = (again.object.spec as { template: { spec: { containers: { name: string; image: string }[] } } }).template.spec.containers;
  // The strategic patch put the new sidecar first (the patch's items before the server's, as
  // kube-apiserver orders them); the apply merges into that list by name.
  assert.deepEqual(containers.map((c) => `${c.name}=${c.image}`), ['sidecar=envoy', 'web=nginx:2']);
  assert.equal((again.object.spec as { replicas: number }).replicas, 3);
});

test('invalid label keys or values are 422 on create and on update', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.create(CM, 'default', configMap('a', { 'bad key': 'v' })), (e: unknown) =>
    code(422, 'Invalid')(e) && (e as ApiError).status?.details?.causes?.[0]?.field === 'metadata.labels');
  cluster.create(CM, 'default', configMap('a', { ok: 'v' }));
  assert.throws(() => cluster.patch(CM, 'default', 'a', 'merge', { metadata: { labels: { ok: 'not ok!' } } }), code(422, 'Invalid'));
  cluster.patch(CM, 'default', 'a', 'merge', { metadata: { labels: { 'example.com/tier': 'front_1' } } });
});

test('immutable ConfigMaps and workload selectors refuse changes with 422', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', { ...configMap('frozen'), immutable: true });
  assert.throws(() => cluster.patch(CM, 'default', 'frozen', 'merge', { data: { k: 'changed' } }), code(422, 'Invalid'));
  cluster.patch(CM, 'default', 'frozen', 'merge', { metadata: { labels: { ok: 'yes' } } });
  cluster.create(DEPLOY, 'default', deployment('web'));
  assert.throws(() => cluster.patch(DEPLOY, 'default', 'web', 'merge', { spec: { selector: { matchLabels: { app: 'other' } } } }), (e: unknown) =>
    code(422)(e) && /spec\.selector/.test((e as ApiError).message));
});

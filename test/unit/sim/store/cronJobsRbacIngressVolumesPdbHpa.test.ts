// The kinds added after the first set (CronJob, RBAC, Ingress, NetworkPolicy, PVC/PV, PDB, HPA) get
// the store's generic behaviour, plus the per-kind facts a controller notices: which track
// generation, which have /status, RBAC's path-segment names and immutable roleRef, volumes Pending.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { newCluster, record, tick } from './helpers.ts';

const CRONJOBS = { group: 'batch', version: 'v1', resource: 'cronjobs' };
const ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles' };
const CLUSTER_ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };
const BINDINGS = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings' };
const INGRESSES = { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses' };
const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
const PVS = { group: '', version: 'v1', resource: 'persistentvolumes' };
const PDBS = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };
const HPAS = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
const SSAR = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews' };

const code = (c: number, reason?: string) => (e: unknown): boolean => e instanceof ApiError && e.code === c && (reason === undefined || e.reason === reason);

const cronJob = (name: string, schedule = '*/5 * * * *', labels?: Record<string, string>): KubeObject => ({
  apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name, ...(labels ? { labels } : {}) },
  spec: { schedule, jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox:1.36' }] } } } } },
});

const binding = (name: string, role: string): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: 'default' }],
});

test('CronJobs: create, label-selected list, watch, merge patch, delete — and generation tracks spec changes', async () => {
  const { cluster } = newCluster();
  const watch = record(cluster, CRONJOBS, { namespace: 'default', resourceVersion: String(cluster.resourceVersion) });
  const created = cluster.create(CRONJOBS, 'default', cronJob('nightly', '0 3 * * *', { tier: 'batch' }));
  cluster.create(CRONJOBS, 'default', cronJob('hourly', '0 * * * *'));
  assert.equal(created.object.metadata.generation, 1);
  assert.deepEqual(cluster.list(CRONJOBS, { namespace: 'default', labelSelector: 'tier=batch' }).items.map((i) => i.object.metadata.name), ['nightly']);
  const patched = cluster.patch(CRONJOBS, 'default', 'nightly', 'merge', { spec: { suspend: true } });
  assert.equal(patched.object.metadata.generation, 2);
  assert.equal((patched.object.spec as { suspend: boolean }).suspend, true);
  const status = cluster.patch(CRONJOBS, 'default', 'nightly', 'merge', { status: { lastScheduleTime: '2026-01-01T03:00:00Z' } }, 'status');
  assert.equal(status.object.metadata.generation, 2, 'a /status write does not bump generation');
  cluster.delete(CRONJOBS, 'default', 'hourly');
  await tick();
  assert.deepEqual(watch.events.map((e) => `${e.type} ${e.object.metadata?.name}`), ['ADDED nightly', 'ADDED hourly', 'MODIFIED nightly', 'MODIFIED nightly', 'DELETED hourly']);
  watch.handle.stop();
});

test('Ingresses and PodDisruptionBudgets keep generation; PVCs and HPAs do not', () => {
  const { cluster } = newCluster();
  const ing = cluster.create(INGRESSES, 'default', { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web' }, spec: { rules: [{ host: 'a.example.com' }] } });
  assert.equal(ing.object.metadata.generation, 1);
  assert.equal(cluster.patch(INGRESSES, 'default', 'web', 'merge', { spec: { ingressClassName: 'nginx' } }).object.metadata.generation, 2);
  const pdb = cluster.create(PDBS, 'default', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: 1 } });
  assert.equal(pdb.object.metadata.generation, 1);
  const pvc = cluster.create(PVCS, 'default', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
  assert.equal(pvc.object.metadata.generation, undefined);
  const hpa = cluster.create(HPAS, 'default', { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { maxReplicas: 3, scaleTargetRef: { kind: 'Deployment', name: 'web' } } });
  assert.equal(hpa.object.metadata.generation, undefined);
});

test('volumes start Pending (the status the server fills in), whatever the create sent', () => {
  const { cluster } = newCluster();
  const pvc = cluster.create(PVCS, 'default', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Bound' } });
  assert.deepEqual(pvc.object.status, { phase: 'Pending' });
  const pv = cluster.create(PVS, '', { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' }, spec: { capacity: { storage: '1Gi' } } });
  assert.deepEqual(pv.object.status, { phase: 'Pending' });
  assert.equal(pv.object.metadata.namespace, undefined, 'PersistentVolumes are cluster-scoped');
  const bound = cluster.patch(PVCS, 'default', 'data', 'merge', { status: { phase: 'Bound' } }, 'status');
  assert.equal((bound.object.status as { phase: string }).phase, 'Bound');
});

test('RBAC names are path segments (colons allowed; "/", "%", "." and ".." refused); RBAC kinds have no /status', () => {
  const { cluster } = newCluster();
  const role = cluster.create(CLUSTER_ROLES, '', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:controller:Lab_Reader' }, rules: [] });
  assert.equal(role.object.metadata.name, 'system:controller:Lab_Reader');
  for (const bad of ['a/b', 'a%b', '.', '..']) {
    assert.throws(() => cluster.create(ROLES, 'default', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: bad }, rules: [] }), (e: unknown) =>
      code(422, 'Invalid')(e) && /may not be '\.' or '\.\.' and may not contain '\/' or '%'/.test((e as ApiError).message), bad);
  }
  assert.throws(() => cluster.get(CLUSTER_ROLES, '', 'system:controller:Lab_Reader', 'status'), code(404));
  assert.equal(role.object.metadata.generation, undefined);
});

test('a binding\'s roleRef cannot change (422), while its subjects can', () => {
  const { cluster } = newCluster();
  cluster.create(BINDINGS, '', binding('readers', 'view'));
  const changed = cluster.patch(BINDINGS, '', 'readers', 'merge', { subjects: [{ kind: 'Group', name: 'devs' }] });
  assert.deepEqual(changed.object.subjects, [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }]);
  assert.throws(() => cluster.patch(BINDINGS, '', 'readers', 'merge', { roleRef: { name: 'edit' } }), (e: unknown) =>
    code(422, 'Invalid')(e) && /roleRef: Invalid value: .*cannot change roleRef/.test((e as ApiError).message));
  const same = cluster.update(BINDINGS, '', 'readers', { ...binding('readers', 'view'), roleRef: { kind: 'ClusterRole', name: 'view' } });
  assert.equal((same.object.roleRef as { apiGroup: string }).apiGroup, 'rbac.authorization.k8s.io', 'a roleRef without apiGroup is the same roleRef once defaulted');
});

test('the store refuses to keep a review (they are answered by the API server, never stored)', () => {
  const { cluster } = newCluster();
  const rv = cluster.resourceVersion;
  assert.throws(() => cluster.create(SSAR, '', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: { name: 'x' }, spec: {} }), code(400, 'BadRequest'));
  assert.throws(() => cluster.list(SSAR, {}), code(405));
  assert.equal(cluster.resourceVersion, rv);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { DEPLOY, newCluster } from './helpers.ts';

const SVC = { group: '', version: 'v1', resource: 'services' };
const JOBS = { group: 'batch', version: 'v1', resource: 'jobs' };

const manifest = (): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }, { name: 'side', image: 'envoy' }] } } },
});

test('deployments, pod templates and containers get the server\'s defaults', () => {
  const { cluster } = newCluster();
  const d = cluster.create(DEPLOY, 'default', manifest()).object as unknown as { spec: Record<string, unknown> & { template: { spec: Record<string, unknown> & { containers: Record<string, unknown>[] } } } };
  assert.equal(d.spec.replicas, 1);
  assert.deepEqual(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  assert.equal(d.spec.revisionHistoryLimit, 10);
  const pod = d.spec.template.spec;
  assert.equal(pod.restartPolicy, 'Always');
  assert.equal(pod.terminationGracePeriodSeconds, 30);
  assert.equal(pod.containers[0]?.imagePullPolicy, 'IfNotPresent');
  assert.equal(pod.containers[1]?.imagePullPolicy, 'Always', 'no tag means latest');
  assert.deepEqual(pod.containers[0]?.ports, [{ containerPort: 80, protocol: 'TCP' }]);
});

test('re-sending the same (undefaulted) manifest changes nothing: no new RV, no generation bump', () => {
  const { cluster } = newCluster();
  const first = cluster.create(DEPLOY, 'default', manifest());
  const again = cluster.update(DEPLOY, 'default', 'web', manifest());
  assert.equal(again.resourceVersion, first.resourceVersion);
  assert.equal(again.object.metadata.generation, 1);
});

test('the same spec with its keys in another order is the same spec: no generation bump', () => {
  const { cluster } = newCluster();
  cluster.create(DEPLOY, 'default', manifest());
  const original = manifest();
  const reordered: KubeObject = { ...original, spec: Object.fromEntries(Object.entries(original.spec as Record<string, unknown>).reverse()) };
  const again = cluster.update(DEPLOY, 'default', 'web', reordered);
  assert.equal(again.object.metadata.generation, 1);
});

test('services get a cluster IP that an update leaving it out keeps; headless services keep None', () => {
  const { cluster } = newCluster();
  const svc = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }], ...extra } });
  const a = cluster.create(SVC, 'default', svc('a')).object.spec as { clusterIP: string; clusterIPs: string[]; ports: unknown[]; type: string };
  const b = cluster.create(SVC, 'default', svc('b')).object.spec as { clusterIP: string };
  assert.match(a.clusterIP, /^10\.96\.\d+\.\d+$/);
  assert.notEqual(a.clusterIP, b.clusterIP);
  assert.deepEqual(a.clusterIPs, [a.clusterIP]);
  assert.equal(a.type, 'ClusterIP');
  assert.deepEqual(a.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
  const replaced = cluster.update(SVC, 'default', 'a', svc('a', { ports: [{ port: 8080 }] })).object.spec as { clusterIP: string };
  assert.equal(replaced.clusterIP, a.clusterIP);
  const headless = cluster.create(SVC, 'default', svc('h', { clusterIP: 'None' })).object.spec as { clusterIP: string };
  assert.equal(headless.clusterIP, 'None');
});

test('jobs default completions, parallelism and backoffLimit; their pods must choose a restartPolicy that ends', () => {
  const { cluster } = newCluster();
  const job = (name: string, podSpec: Record<string, unknown>): KubeObject => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:1' }], ...podSpec } } } });
  const j = cluster.create(JOBS, 'default', job('j', { restartPolicy: 'Never' })).object.spec as Record<string, unknown> & { template: { spec: Record<string, unknown> } };
  assert.deepEqual([j.completions, j.parallelism, j.backoffLimit, j.completionMode], [1, 1, 6, 'NonIndexed']);
  assert.equal(j.template.spec.restartPolicy, 'Never');
  // The pod defaults give it Always, which a Job refuses, as kube-apiserver does.
  assert.throws(() => cluster.create(JOBS, 'default', job('forever', {})), /Job\.batch "forever" is invalid: spec\.template\.spec\.restartPolicy: Required value: valid values: "OnFailure", "Never"/);
});

const CRONJOBS = { group: 'batch', version: 'v1', resource: 'cronjobs' };
const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
const PVS = { group: '', version: 'v1', resource: 'persistentvolumes' };
const NETPOLS = { group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies' };
const ROLE_BINDINGS = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings' };
const HPAS = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };

type Spec = Record<string, unknown>;
const specOf = (o: KubeObject): Spec => o.spec as Spec;

test('cronjobs default concurrency, suspend and history limits; their pod template gets pod defaults but no Job fields', () => {
  const { cluster } = newCluster();
  const cj = cluster.create(CRONJOBS, 'default', {
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly' },
    spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } } } } },
  }).object;
  const spec = specOf(cj);
  assert.deepEqual([spec.concurrencyPolicy, spec.suspend, spec.successfulJobsHistoryLimit, spec.failedJobsHistoryLimit], ['Allow', false, 3, 1]);
  const jobSpec = (spec.jobTemplate as { spec: Spec & { template: { spec: Spec & { containers: Spec[] } } } }).spec;
  assert.equal(jobSpec.backoffLimit, undefined, 'Job defaults belong to the Jobs the controller makes');
  assert.equal(jobSpec.template.spec.dnsPolicy, 'ClusterFirst');
  assert.equal(jobSpec.template.spec.restartPolicy, 'OnFailure');
  assert.equal(jobSpec.template.spec.containers[0]?.imagePullPolicy, 'Always');
  const kept = cluster.create(CRONJOBS, 'default', { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'forbid' }, spec: { schedule: '* * * * *', concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 0, jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } } } } }).object;
  assert.deepEqual([specOf(kept).concurrencyPolicy, specOf(kept).suspend, specOf(kept).successfulJobsHistoryLimit], ['Forbid', true, 0]);
});

test('volumes default to Filesystem mode; a hand-made PersistentVolume is Retained', () => {
  const { cluster } = newCluster();
  const pvc = cluster.create(PVCS, 'default', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }).object;
  assert.equal(specOf(pvc).volumeMode, 'Filesystem');
  const pv = cluster.create(PVS, '', { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' }, spec: { capacity: { storage: '1Gi' }, volumeMode: 'Block' } }).object;
  assert.deepEqual([specOf(pv).persistentVolumeReclaimPolicy, specOf(pv).volumeMode], ['Retain', 'Block']);
});

test('network policies always isolate ingress, egress only when they have egress rules; rule ports default to TCP', () => {
  const { cluster } = newCluster();
  const policy = (name: string, spec: Spec): Spec => specOf(cluster.create(NETPOLS, 'default', { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name }, spec }).object);
  assert.deepEqual(policy('deny-all', { podSelector: {} }).policyTypes, ['Ingress']);
  const dns = policy('dns', { podSelector: {}, egress: [{ ports: [{ port: 53 }, { port: 53, protocol: 'UDP' }] }] });
  assert.deepEqual(dns.policyTypes, ['Ingress', 'Egress']);
  assert.deepEqual((dns.egress as { ports: unknown[] }[])[0]?.ports, [{ port: 53, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }]);
  assert.deepEqual(policy('egress-only', { podSelector: {}, policyTypes: ['Egress'] }).policyTypes, ['Egress']);
});

test('bindings get the RBAC group on their roleRef and on User/Group subjects, not on ServiceAccounts', () => {
  const { cluster } = newCluster();
  const rb = cluster.create(ROLE_BINDINGS, 'default', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'edit' },
    roleRef: { kind: 'Role', name: 'editor' },
    subjects: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', name: 'robot', namespace: 'default' }],
  }).object as KubeObject & { roleRef: Spec; subjects: Spec[] };
  assert.equal(rb.roleRef.apiGroup, 'rbac.authorization.k8s.io');
  assert.deepEqual(rb.subjects.map((s) => s.apiGroup), ['rbac.authorization.k8s.io', 'rbac.authorization.k8s.io', undefined]);
});

test('HPAs default minReplicas 1 and CPU at 80%; a behavior gets the scaling rules it leaves out', () => {
  const { cluster } = newCluster();
  const hpa = (name: string, spec: Spec): Spec => specOf(cluster.create(HPAS, 'default', {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec },
  }).object);
  const plain = hpa('plain', {});
  assert.equal(plain.minReplicas, 1);
  assert.deepEqual(plain.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  assert.equal(plain.behavior, undefined, 'no behavior unless one is given');
  const tuned = hpa('tuned', { minReplicas: 2, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } });
  assert.equal(tuned.minReplicas, 2);
  assert.deepEqual(tuned.behavior, {
    scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
  });
  // Defaulting is idempotent: re-sending the undefaulted manifest is no change at all.
  const before = cluster.get(HPAS, 'default', 'tuned').resourceVersion;
  const manifest = { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, minReplicas: 2, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } };
  const again = cluster.update(HPAS, 'default', 'tuned', { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'tuned' }, spec: manifest });
  assert.equal(again.resourceVersion, before);
});

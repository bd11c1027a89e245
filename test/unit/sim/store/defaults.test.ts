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

test('jobs default completions, parallelism and backoffLimit but not their pods\' restartPolicy', () => {
  const { cluster } = newCluster();
  const j = cluster.create(JOBS, 'default', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:1' }] } } } }).object.spec as Record<string, unknown> & { template: { spec: Record<string, unknown> } };
  assert.deepEqual([j.completions, j.parallelism, j.backoffLimit], [1, 1, 6]);
  assert.equal(j.template.spec.restartPolicy, undefined);
});

// Defaults a kube-apiserver v1.28.4 answers with that clients see on their first read-back
// (each checked against the real server): a Job's labels from its template, a DaemonSet's
// template generation, an Endpoints port's protocol, a PriorityClass's generation, a
// StatefulSet's claim templates defaulted as claims.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newCluster } from '../store/helpers.ts';

const gvr = (group: string, resource: string) => ({ group, version: 'v1', resource });
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test('a Job without labels takes its template\'s, generated selector labels included', () => {
  const { cluster } = newCluster();
  const job = cluster.create(gvr('batch', 'jobs'), 'default', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } }).object;
  assert.equal(job.metadata.labels?.['job-name'], 'j');
  assert.equal(job.metadata.labels?.['batch.kubernetes.io/controller-uid'], job.metadata.uid);
});

test('a DaemonSet\'s template generation annotation starts at 1 and moves only with its template', () => {
  const { cluster } = newCluster();
  const DS = gvr('apps', 'daemonsets');
  const body = (image: string, label = 'x') => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd', labels: { l: label } }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image }] } } } });
  const generation = (o: { metadata: { annotations?: Record<string, string> } }) => o.metadata.annotations?.['deprecated.daemonset.template.generation'];
  assert.equal(generation(cluster.create(DS, 'default', body('busybox:1')).object), '1');
  assert.equal(generation(cluster.update(DS, 'default', 'd', body('busybox:1', 'y')).object), '1', 'a label change leaves it');
  assert.equal(generation(cluster.update(DS, 'default', 'd', body('busybox:2', 'y')).object), '2');
});

test('an Endpoints port defaults to TCP; a PriorityClass has generation 1 that never moves', () => {
  const { cluster } = newCluster();
  const ep = cluster.create(gvr('', 'endpoints'), 'default', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'e' }, subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] }).object as Json;
  assert.equal(ep['subsets'][0].ports[0].protocol, 'TCP');
  const PC = gvr('scheduling.k8s.io', 'priorityclasses');
  assert.equal(cluster.create(PC, '', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'p' }, value: 10 }).object.metadata.generation, 1);
  assert.equal(cluster.patch(PC, '', 'p', 'merge', { description: 'changed' }).object.metadata.generation, 1);
});

test('a StatefulSet\'s claim templates are defaulted as claims', () => {
  const { cluster } = newCluster();
  const sts = cluster.create(gvr('apps', 'statefulsets'), 'default', {
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' },
    spec: { serviceName: 's', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] },
  }).object as Json;
  const claim = sts['spec'].volumeClaimTemplates[0];
  assert.deepEqual([claim.apiVersion, claim.kind, claim.spec.volumeMode, claim.status.phase], ['v1', 'PersistentVolumeClaim', 'Filesystem', 'Pending']);
});

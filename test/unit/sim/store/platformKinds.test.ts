// The cluster plumbing kinds (EndpointSlice, ControllerRevision, ResourceQuota, LimitRange,
// PodTemplate, PriorityClass, StorageClass, IngressClass, webhook configurations) get the store's
// generic behaviour, their scope, which of them track generation, and the server's defaults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { newCluster, record, tick } from './helpers.ts';

const SLICES = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
const REVISIONS = { group: 'apps', version: 'v1', resource: 'controllerrevisions' };
const QUOTAS = { group: '', version: 'v1', resource: 'resourcequotas' };
const LIMITS = { group: '', version: 'v1', resource: 'limitranges' };
const TEMPLATES = { group: '', version: 'v1', resource: 'podtemplates' };
const PRIORITIES = { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses' };
const STORAGE_CLASSES = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses' };
const INGRESS_CLASSES = { group: 'networking.k8s.io', version: 'v1', resource: 'ingressclasses' };
const VALIDATING = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations' };
const MUTATING = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'mutatingwebhookconfigurations' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const json = (o: KubeObject): Json => o as unknown as Json;

const slice = (name: string, service: string): KubeObject => ({
  apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name, labels: { 'kubernetes.io/service-name': service } },
  addressType: 'IPv4', ports: [{ port: 80 }], endpoints: [{ addresses: ['10.0.0.1'] }],
} as unknown as KubeObject);

test('EndpointSlices: create, list by service label, watch, patch — generation follows the endpoints', async () => {
  const { cluster } = newCluster();
  const watch = record(cluster, SLICES, { namespace: 'default', resourceVersion: String(cluster.resourceVersion) });
  const created = cluster.create(SLICES, 'default', slice('web-1', 'web'));
  cluster.create(SLICES, 'default', slice('db-1', 'db'));
  assert.equal(created.object.metadata.generation, 1);
  assert.deepEqual(cluster.list(SLICES, { namespace: 'default', labelSelector: 'kubernetes.io/service-name=web' }).items.map((i) => i.object.metadata.name), ['web-1']);
  const moved = cluster.patch(SLICES, 'default', 'web-1', 'merge', { endpoints: [{ addresses: ['10.0.0.9'] }] });
  assert.equal(moved.object.metadata.generation, 2);
  await tick();
  assert.deepEqual(watch.events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED web-1', 'ADDED db-1', 'MODIFIED web-1']);
  watch.handle.stop();
});

test('cluster-scoped kinds ignore the namespace; quotas, limits, templates and revisions are namespaced', () => {
  const { cluster } = newCluster();
  const pc = cluster.create(PRIORITIES, '', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 } as unknown as KubeObject);
  const sc = cluster.create(STORAGE_CLASSES, '', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'x' } as unknown as KubeObject);
  const ic = cluster.create(INGRESS_CLASSES, '', { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: 'nginx' }, spec: { controller: 'k8s.io/ingress-nginx' } });
  for (const o of [pc, sc, ic]) assert.equal(o.object.metadata.namespace, undefined);
  const quota = cluster.create(QUOTAS, 'default', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '2' } } });
  assert.equal(quota.object.metadata.namespace, 'default');
});

test('generation: kept by IngressClasses, PodTemplates and webhook configurations; not by quotas, classes or revisions', () => {
  const { cluster } = newCluster();
  const ic = cluster.create(INGRESS_CLASSES, '', { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: 'nginx' }, spec: { controller: 'a' } });
  assert.equal(ic.object.metadata.generation, 1);
  const template = cluster.create(TEMPLATES, 'default', { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 't' }, template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } as unknown as KubeObject);
  assert.equal(template.object.metadata.generation, 1);
  const hook = cluster.create(VALIDATING, '', { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' }, webhooks: [] } as unknown as KubeObject);
  assert.equal(hook.object.metadata.generation, 1);
  const revision = cluster.create(REVISIONS, 'default', { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1 } as unknown as KubeObject);
  assert.equal(revision.object.metadata.generation, undefined);
  const quota = cluster.create(QUOTAS, 'default', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '2' } } });
  assert.equal(quota.object.metadata.generation, undefined);
});

test('a quota\'s status is the controller\'s: emptied on create, written through /status', () => {
  const { cluster } = newCluster();
  const quota = cluster.create(QUOTAS, 'default', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '2' } }, status: { hard: { pods: '99' } } });
  assert.deepEqual(quota.object.status, {});
  const counted = cluster.patch(QUOTAS, 'default', 'q', 'merge', { status: { hard: { pods: '2' }, used: { pods: '1' } } }, 'status');
  assert.deepEqual(counted.object.status, { hard: { pods: '2' }, used: { pods: '1' } });
});

test('StorageClasses default to Delete and Immediate; PriorityClasses may preempt; given values are kept', () => {
  const { cluster } = newCluster();
  const sc = json(cluster.create(STORAGE_CLASSES, '', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'ebs.csi.aws.com' } as unknown as KubeObject).object);
  assert.deepEqual([sc['reclaimPolicy'], sc['volumeBindingMode'], sc['allowVolumeExpansion']], ['Delete', 'Immediate', undefined]);
  const kept = json(cluster.create(STORAGE_CLASSES, '', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'slow' }, provisioner: 'x', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' } as unknown as KubeObject).object);
  assert.deepEqual([kept['reclaimPolicy'], kept['volumeBindingMode']], ['Retain', 'WaitForFirstConsumer']);
  const pc = json(cluster.create(PRIORITIES, '', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 } as unknown as KubeObject).object);
  assert.deepEqual([pc['preemptionPolicy'], pc['globalDefault']], ['PreemptLowerPriority', undefined]);
});

test('webhooks get failurePolicy, matchPolicy, selectors, timeout, rule scope and service port; mutating ones also reinvocationPolicy', () => {
  const { cluster } = newCluster();
  const webhook = { name: 'a.example.com', clientConfig: { service: { name: 'svc', namespace: 'ns' } }, rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] };
  const validating = json(cluster.create(VALIDATING, '', { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' }, webhooks: [webhook] } as unknown as KubeObject).object)['webhooks'][0];
  assert.deepEqual(validating, {
    ...webhook,
    clientConfig: { service: { name: 'svc', namespace: 'ns', port: 443 } },
    rules: [{ ...webhook.rules[0], scope: '*' }],
    failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10,
  });
  const mutating = json(cluster.create(MUTATING, '', { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'm' }, webhooks: [{ ...webhook, failurePolicy: 'Ignore', timeoutSeconds: 3 }] } as unknown as KubeObject).object)['webhooks'][0];
  assert.deepEqual([mutating.failurePolicy, mutating.timeoutSeconds, mutating.reinvocationPolicy, mutating.sideEffects], ['Ignore', 3, 'Never', 'None']);
});

test('EndpointSlice ports default to name "" and TCP; LimitRange container items fill default limits and requests', () => {
  const { cluster } = newCluster();
  const s = json(cluster.create(SLICES, 'default', { ...slice('s', 'web'), ports: [{ port: 53, protocol: 'UDP' }, { name: 'http' }] } as unknown as KubeObject).object);
  assert.deepEqual(s['ports'], [{ port: 53, protocol: 'UDP', name: '' }, { name: 'http', protocol: 'TCP' }]);
  const limits = json(cluster.create(LIMITS, 'default', {
    apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' },
    spec: { limits: [{ type: 'Container', max: { cpu: '2', memory: '1Gi' }, default: { memory: '512Mi' }, min: { cpu: '100m' } }, { type: 'Pod', max: { cpu: '4' } }] },
  }).object)['spec'].limits;
  assert.deepEqual(limits[0].default, { memory: '512Mi', cpu: '2' }, 'a missing default limit is the max');
  assert.deepEqual(limits[0].defaultRequest, { memory: '512Mi', cpu: '2' }, 'a missing default request is the default limit');
  assert.deepEqual(limits[1], { type: 'Pod', max: { cpu: '4' } }, 'Pod items get no defaults');
});

test('PodTemplates get pod defaults; re-sending the same template changes nothing', () => {
  const { cluster } = newCluster();
  const manifest = (): KubeObject => ({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 't' }, template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } as unknown as KubeObject);
  const created = cluster.create(TEMPLATES, 'default', manifest());
  const spec = json(created.object)['template'].spec;
  assert.deepEqual([spec.restartPolicy, spec.dnsPolicy, spec.containers[0].imagePullPolicy], ['Always', 'ClusterFirst', 'Always']);
  const again = cluster.update(TEMPLATES, 'default', 't', manifest());
  assert.equal(again.resourceVersion, created.resourceVersion);
  assert.equal(again.object.metadata.generation, 1);
});

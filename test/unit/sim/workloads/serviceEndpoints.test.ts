import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { ENDPOINTS } from '../../../../src/sim/workloads/endpointsController.ts';
import { ENDPOINT_SLICES } from '../../../../src/sim/workloads/endpointSliceController.ts';
import { SERVICES } from '../../../../src/sim/workloads/serviceBackends.ts';
import { deployment, GVR, workloadLab, type Lab } from './harness.ts';

// What a controller watching Endpoints or EndpointSlices sees on a real cluster: every Service with
// a selector lists the IPs of its ready Pods, on the port its targetPort names, and follows them as
// they scale, roll and leave; the Service's deletion takes its endpoints along.

function web(replicas: number): KubeObject {
  const d = deployment('web', replicas, 'nginx:1.25');
  const template = (d.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template;
  template.spec.containers[0]!.ports = [{ name: 'http', containerPort: 8080 }];
  return d;
}

function service(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, labels: { tier: 'front' } }, spec: { ports: [{ port: 80, targetPort: 'http' }], ...spec } };
}

interface Address { ip: string; nodeName?: string; hostname?: string; targetRef: { kind: string; name: string; uid: string } }
interface Subset { addresses?: Address[]; notReadyAddresses?: Address[]; ports?: { name?: string; port: number; protocol: string }[] }
interface SliceEndpoint { addresses: string[]; conditions: Record<string, boolean>; nodeName?: string; hostname?: string; targetRef: { name: string } }
interface Slice extends KubeObject { addressType: string; endpoints: SliceEndpoint[]; ports?: { name: string; port: number; protocol: string }[] }

const endpointsOf = (lab: Lab, name: string): (KubeObject & { subsets?: Subset[] }) | undefined =>
  lab.cluster.list(ENDPOINTS, { namespace: 'default' }).items.map((s) => s.object as KubeObject & { subsets?: Subset[] }).find((e) => e.metadata.name === name);
const slicesOf = (lab: Lab, name: string): Slice[] =>
  lab.cluster.list(ENDPOINT_SLICES, { namespace: 'default', labelSelector: `kubernetes.io/service-name=${name}` }).items.map((s) => s.object as Slice);
const readyIps = (lab: Lab, name: string): string[] => (endpointsOf(lab, name)?.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip)).sort();
const podIps = (lab: Lab): string[] => lab.items(GVR.pods).map((p) => (p.status as { podIP?: string }).podIP ?? '').sort();

test('a Service lists its ready Pods in Endpoints and an EndpointSlice, on the named target port', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', web(2));
  lab.cluster.create(SERVICES, 'default', service('web', { selector: { app: 'web' } }));
  await lab.until(() => readyIps(lab, 'web').length === 2);

  assert.deepEqual(readyIps(lab, 'web'), podIps(lab));
  const endpoints = endpointsOf(lab, 'web')!;
  assert.deepEqual(endpoints.metadata.labels, { tier: 'front' });
  assert.match(endpoints.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time'] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const [subset] = endpoints.subsets!;
  assert.deepEqual(subset!.ports, [{ port: 8080, protocol: 'TCP' }], 'the port the Pods named http, name left out when empty');
  const pod = lab.items(GVR.pods).find((p) => (p.status as { podIP: string }).podIP === subset!.addresses![0]!.ip)!;
  assert.deepEqual(subset!.addresses![0], { ip: (pod.status as { podIP: string }).podIP, nodeName: (pod.spec as { nodeName: string }).nodeName, targetRef: { kind: 'Pod', namespace: 'default', name: pod.metadata.name, uid: pod.metadata.uid } });

  const [slice, ...more] = slicesOf(lab, 'web');
  assert.equal(more.length, 0);
  assert.equal(slice!.addressType, 'IPv4');
  assert.match(slice!.metadata.name ?? '', /^web-[a-z0-9]{5}$/);
  assert.deepEqual(slice!.metadata.labels, { tier: 'front', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
  const svc = lab.cluster.get(SERVICES, 'default', 'web').object;
  assert.deepEqual(slice!.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual(slice!.ports, [{ name: '', port: 8080, protocol: 'TCP' }]);
  assert.deepEqual(slice!.endpoints.map((e) => e.addresses[0]).sort(), podIps(lab));
  assert.deepEqual(slice!.endpoints[0]!.conditions, { ready: true, serving: true, terminating: false });
});

test('endpoints follow a scale-down, a relabelled Pod and the Service\'s deletion, and are not rewritten when nothing changed', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', web(3));
  lab.cluster.create(SERVICES, 'default', service('web', { selector: { app: 'web' } }));
  await lab.until(() => readyIps(lab, 'web').length === 3);
  const sliceName = slicesOf(lab, 'web')[0]!.metadata.name;

  const scaled = web(1);
  const current = lab.cluster.get(GVR.deployments, 'default', 'web').object;
  lab.cluster.update(GVR.deployments, 'default', 'web', { ...scaled, metadata: current.metadata }, undefined);
  await lab.until(() => readyIps(lab, 'web').length === 1 && lab.items(GVR.pods).length === 1);
  assert.deepEqual(readyIps(lab, 'web'), podIps(lab));
  assert.deepEqual(slicesOf(lab, 'web').map((s) => [s.metadata.name, s.endpoints.length]), [[sliceName, 1]], 'the slice is updated in place');

  const rv = endpointsOf(lab, 'web')!.metadata.resourceVersion;
  const [pod] = lab.items(GVR.pods);
  lab.cluster.patch(GVR.pods, 'default', pod!.metadata.name!, 'merge', { metadata: { annotations: { note: 'hi' } } });
  await lab.run(200);
  assert.equal(endpointsOf(lab, 'web')!.metadata.resourceVersion, rv, 'an unrelated Pod change writes nothing');

  lab.cluster.patch(GVR.pods, 'default', pod!.metadata.name!, 'merge', { metadata: { labels: { app: 'elsewhere' } } });
  await lab.until(() => !readyIps(lab, 'web').includes((pod!.status as { podIP: string }).podIP));

  lab.cluster.delete(SERVICES, 'default', 'web');
  await lab.until(() => endpointsOf(lab, 'web') === undefined && slicesOf(lab, 'web').length === 0);
});

test('Pods that were running before their Service and are then scaled away leave its endpoints', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', web(2));
  await lab.until(() => podIps(lab).filter(Boolean).length === 2 && lab.items(GVR.pods).every((p) => (p.status as { phase?: string }).phase === 'Running'));
  await lab.run(2000);
  lab.cluster.create(SERVICES, 'default', service('web', { selector: { app: 'web' } }));
  await lab.until(() => readyIps(lab, 'web').length === 2);
  const current = lab.cluster.get(GVR.deployments, 'default', 'web').object;
  lab.cluster.update(GVR.deployments, 'default', 'web', { ...web(1), metadata: current.metadata }, undefined);
  await lab.until(() => lab.items(GVR.pods).length === 1);
  await lab.until(() => readyIps(lab, 'web').length === 1 && slicesOf(lab, 'web')[0]!.endpoints.length === 1);
  assert.deepEqual(readyIps(lab, 'web'), podIps(lab));
});

test('a Service without Pods has an empty placeholder slice; without a selector its Endpoints are left to the user (and mirrored)', async () => {
  const lab = workloadLab();
  lab.cluster.create(SERVICES, 'default', service('lonely', { selector: { app: 'nobody' } }));
  const manual: KubeObject = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'external' }, subsets: [{ addresses: [{ ip: '192.0.2.7' }], ports: [{ port: 5432 }] }] } as KubeObject;
  lab.cluster.create(ENDPOINTS, 'default', manual);
  lab.cluster.create(SERVICES, 'default', service('external', {}));
  await lab.until(() => slicesOf(lab, 'lonely').length === 1 && endpointsOf(lab, 'lonely') !== undefined);
  await lab.run(200);
  assert.deepEqual(slicesOf(lab, 'lonely')[0]!.endpoints, []);
  assert.equal(slicesOf(lab, 'lonely')[0]!.ports, null, 'ports has no omitempty');
  assert.equal(endpointsOf(lab, 'lonely')!.subsets, undefined);
  assert.deepEqual(endpointsOf(lab, 'external')!.subsets, [{ addresses: [{ ip: '192.0.2.7' }], ports: [{ port: 5432, protocol: 'TCP' }] }]);
  const mirrored = slicesOf(lab, 'external');
  assert.deepEqual(mirrored.map((s) => s.metadata.labels?.['endpointslice.kubernetes.io/managed-by']), ['endpointslicemirroring-controller.k8s.io'], 'only the mirroring controller writes its slice');
});

test('a headless Service behind a StatefulSet names each Pod by its hostname', async () => {
  const lab = workloadLab();
  lab.cluster.create(SERVICES, 'default', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'db' }, spec: { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] } });
  lab.cluster.create(GVR.statefulsets, 'default', {
    apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' },
    spec: { serviceName: 'db', replicas: 2, selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres' }] } } },
  });
  await lab.until(() => readyIps(lab, 'db').length === 2);
  const hostnames = endpointsOf(lab, 'db')!.subsets!.flatMap((s) => s.addresses!.map((a) => a.hostname)).sort();
  assert.deepEqual(hostnames, ['db-0', 'db-1']);
  assert.deepEqual(endpointsOf(lab, 'db')!.metadata.labels, { 'service.kubernetes.io/headless': '' });
  assert.deepEqual(slicesOf(lab, 'db')[0]!.endpoints.map((e) => e.hostname).sort(), ['db-0', 'db-1']);
});

// `kubectl get` columns and cells for the cluster plumbing kinds, as a v1.28 kube-apiserver's
// printers make them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { renderTable } from '../../../../src/sim/server/table.ts';
import { columnsFor } from '../../../../src/sim/server/tableColumns.ts';

const now = Date.parse('2026-01-01T01:00:00Z');
const created = { creationTimestamp: '2026-01-01T00:00:00Z' };

function table(resource: string, ...objects: Record<string, unknown>[]): { columns: string[]; types: string[]; rows: unknown[][] } {
  const t = JSON.parse(renderTable(objects as unknown as KubeObject[], {}, { columns: columnsFor(resource), includeObject: 'None', now, withColumnDefinitions: true }));
  const defs = t.columnDefinitions as { name: string; type: string; priority: number }[];
  return { columns: defs.map((c) => c.name), types: defs.map((c) => c.type), rows: t.rows.map((r: { cells: unknown[] }) => r.cells) };
}

test('EndpointSlice: address type, up to three ports (number, else name, else *) and addresses, then "+ N more..."', () => {
  const t = table('endpointslices',
    { metadata: { name: 'web-1', ...created }, addressType: 'IPv4', ports: [{ port: 80 }, { name: 'metrics' }, {}, { port: 9 }], endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3'] }] },
    { metadata: { name: 'web-2', ...created }, addressType: 'IPv6', endpoints: [{ addresses: ['fd00::1', 'fd00::2'] }, { addresses: ['fd00::3', 'fd00::4', 'fd00::5'] }] },
  );
  assert.deepEqual(t.columns, ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']);
  assert.deepEqual(t.rows[0], ['web-1', 'IPv4', '80,metrics,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3', '60m']);
  assert.deepEqual(t.rows[1], ['web-2', 'IPv6', '<unset>', 'fd00::1,fd00::2,fd00::3 + 2 more...', '60m']);
});

test('ControllerRevision: the controlling owner as kind.group/name, and the revision number', () => {
  const owned = { metadata: { name: 'web-5d8f', ...created, ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'x' }, { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', controller: true }] }, revision: 7 };
  const t = table('controllerrevisions', owned, { metadata: { name: 'orphan', ...created }, revision: 1 });
  assert.deepEqual(t.columns, ['Name', 'Controller', 'Revision', 'Age']);
  assert.deepEqual(t.types, ['string', 'string', 'number', 'string']);
  assert.deepEqual(t.rows, [['web-5d8f', 'daemonset.apps/agent', 7, '60m'], ['orphan', '<none>', 1, '60m']]);
});

test('ResourceQuota: age first, then used/hard from status, limits.* in the Limit column; empty before the controller counts', () => {
  const counted = {
    metadata: { name: 'compute', ...created },
    status: { hard: { 'requests.cpu': '2', 'limits.memory': '4Gi', pods: '10', 'limits.cpu': '4' }, used: { 'requests.cpu': '500m', pods: '3', 'limits.cpu': '1' } },
  };
  const t = table('resourcequotas', counted, { metadata: { name: 'fresh', ...created }, spec: { hard: { pods: '2' } } });
  assert.deepEqual(t.columns, ['Name', 'Age', 'Request', 'Limit']);
  assert.deepEqual(t.rows[0], ['compute', '60m', 'pods: 3/10, requests.cpu: 500m/2', 'limits.cpu: 1/4, limits.memory: 0/4Gi']);
  assert.deepEqual(t.rows[1], ['fresh', '60m', '', '']);
});

test('LimitRange shows its creation time; PodTemplate its containers, images and pod labels (no Age)', () => {
  assert.deepEqual(table('limitranges', { metadata: { name: 'defaults', ...created } }), { columns: ['Name', 'Created At'], types: ['string', 'date'], rows: [['defaults', '2026-01-01T00:00:00Z']] });
  const t = table('podtemplates',
    { metadata: { name: 'worker', ...created }, template: { metadata: { labels: { tier: 'batch', app: 'worker' } }, spec: { containers: [{ name: 'main', image: 'busybox:1.36' }, { name: 'side', image: 'envoy' }] } } },
    { metadata: { name: 'bare', ...created }, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  );
  assert.deepEqual(t.columns, ['Name', 'Containers', 'Images', 'Pod Labels']);
  assert.deepEqual(t.rows, [['worker', 'main,side', 'busybox:1.36,envoy', 'app=worker,tier=batch'], ['bare', 'c', 'nginx', '<none>']]);
});

test('PriorityClass: value and global default (v1.28 has no PreemptionPolicy column)', () => {
  const t = table('priorityclasses', { metadata: { name: 'high', ...created }, value: 1000, globalDefault: true, preemptionPolicy: 'Never' }, { metadata: { name: 'low', ...created }, value: -5 });
  assert.deepEqual(t.columns, ['Name', 'Value', 'Global-Default', 'Age']);
  assert.deepEqual(t.rows, [['high', 1000, true, '60m'], ['low', -5, false, '60m']]);
});

test('StorageClass: "(default)" from either annotation, provisioner, policies (server defaults when unset), expansion', () => {
  const t = table('storageclasses',
    { metadata: { name: 'fast', ...created, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'ebs.csi.aws.com', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true },
    { metadata: { name: 'old', ...created, annotations: { 'storageclass.beta.kubernetes.io/is-default-class': 'true' } }, provisioner: 'x' },
    { metadata: { name: 'plain', ...created, annotations: { 'storageclass.kubernetes.io/is-default-class': 'false' } }, provisioner: 'y' },
  );
  assert.deepEqual(t.columns, ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
  assert.deepEqual(t.rows, [
    ['fast (default)', 'ebs.csi.aws.com', 'Retain', 'WaitForFirstConsumer', true, '60m'],
    ['old (default)', 'x', 'Delete', 'Immediate', false, '60m'],
    ['plain', 'y', 'Delete', 'Immediate', false, '60m'],
  ]);
});

test('IngressClass: controller and parameters as Kind.apiGroup/name (no group: Kind/name; none: <none>)', () => {
  const t = table('ingressclasses',
    { metadata: { name: 'nginx', ...created }, spec: { controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'lb' } } },
    { metadata: { name: 'core', ...created }, spec: { controller: 'example.com/c', parameters: { kind: 'ConfigMap', name: 'cfg', scope: 'Namespace', namespace: 'ns' } } },
    { metadata: { name: 'bare', ...created }, spec: { controller: 'example.com/d' } },
  );
  assert.deepEqual(t.columns, ['Name', 'Controller', 'Parameters', 'Age']);
  assert.deepEqual(t.rows.map((r) => r[2]), ['Params.k8s.example.com/lb', 'ConfigMap/cfg', '<none>']);
});

test('webhook configurations: how many webhooks each holds', () => {
  for (const resource of ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations']) {
    const t = table(resource, { metadata: { name: 'two', ...created }, webhooks: [{ name: 'a' }, { name: 'b' }] }, { metadata: { name: 'none', ...created } });
    assert.deepEqual(t.columns, ['Name', 'Webhooks', 'Age'], resource);
    assert.deepEqual(t.rows, [['two', 2, '60m'], ['none', 0, '60m']], resource);
  }
});

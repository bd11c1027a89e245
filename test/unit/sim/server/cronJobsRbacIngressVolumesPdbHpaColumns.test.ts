// `kubectl get` columns and cells for CronJob, RBAC, Ingress, NetworkPolicy, PVC/PV, PDB and HPA,
// as a v1.28 kube-apiserver's printers make them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { renderTable } from '../../../../src/sim/server/table.ts';
import { columnsFor } from '../../../../src/sim/server/tableColumns.ts';
import { hpaTargets } from '../../../../src/sim/kinds/horizontalPodAutoscalerTargets.ts';

const now = Date.parse('2026-01-01T01:00:00Z');
const created = { creationTimestamp: '2026-01-01T00:00:00Z' };

function table(resource: string, ...objects: Record<string, unknown>[]): { columns: string[]; wide: string[]; rows: unknown[][] } {
  const t = JSON.parse(renderTable(objects as unknown as KubeObject[], {}, { columns: columnsFor(resource), includeObject: 'None', now, withColumnDefinitions: true }));
  const defs = t.columnDefinitions as { name: string; priority: number }[];
  return { columns: defs.filter((c) => c.priority === 0).map((c) => c.name), wide: defs.filter((c) => c.priority === 1).map((c) => c.name), rows: t.rows.map((r: { cells: unknown[] }) => r.cells) };
}

test('CronJob: schedule, suspend, active jobs, last schedule (v1.28 has no Timezone column); wide adds the template', () => {
  const cj = {
    metadata: { name: 'nightly', ...created },
    spec: { schedule: '0 3 * * *', suspend: false, jobTemplate: { spec: { template: { spec: { containers: [{ name: 'a', image: 'busybox:1' }, { name: 'b', image: 'alpine' }] } } } } },
    status: { active: [{ name: 'nightly-1' }], lastScheduleTime: '2026-01-01T00:55:00Z' },
  };
  const t = table('cronjobs', cj, { metadata: { name: 'never', ...created }, spec: { schedule: '@daily' } });
  assert.deepEqual(t.columns, ['Name', 'Schedule', 'Suspend', 'Active', 'Last Schedule', 'Age']);
  assert.deepEqual(t.wide, ['Containers', 'Images', 'Selector']);
  assert.deepEqual(t.rows[0], ['nightly', '0 3 * * *', 'False', 1, '5m', '60m', 'a,b', 'busybox:1,alpine', '<none>']);
  assert.deepEqual(t.rows[1]?.slice(0, 5), ['never', '@daily', '<unset>', 0, '<none>']);
});

test('Roles and ClusterRoles show when they were created; bindings their role and, wide, who they bind', () => {
  for (const resource of ['roles', 'clusterroles']) {
    const t = table(resource, { metadata: { name: 'system:reader', ...created } });
    assert.deepEqual(t.columns, ['Name', 'Created At']);
    assert.deepEqual(t.rows[0], ['system:reader', '2026-01-01T00:00:00Z']);
  }
  const subjects = [
    { kind: 'User', name: 'alice' }, { kind: 'User', name: 'bob' }, { kind: 'Group', name: 'devs' },
    { kind: 'ServiceAccount', name: 'robot', namespace: 'ci' },
  ];
  for (const resource of ['rolebindings', 'clusterrolebindings']) {
    const t = table(resource, { metadata: { name: 'readers', ...created }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects }, { metadata: { name: 'nobody', ...created }, roleRef: { kind: 'Role', name: 'r' } });
    assert.deepEqual(t.columns, ['Name', 'Role', 'Age']);
    assert.deepEqual(t.wide, ['Users', 'Groups', 'ServiceAccounts']);
    assert.deepEqual(t.rows[0], ['readers', 'ClusterRole/view', '60m', 'alice, bob', 'devs', 'ci/robot']);
    assert.deepEqual(t.rows[1], ['nobody', 'Role/r', '60m', '', '', '']);
  }
});

test('Ingress: class, hosts (four, then how many more), load-balancer address, 80 or "80, 443" with TLS', () => {
  const t = table('ingresses',
    {
      metadata: { name: 'web', ...created },
      spec: { ingressClassName: 'nginx', tls: [{ hosts: ['a.example.com'] }], rules: ['a', 'b', 'c', 'd', 'e', 'f'].map((h) => ({ host: `${h}.example.com` })) },
      status: { loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example.com' }, { ip: '10.0.0.1' }] } },
    },
    { metadata: { name: 'catch-all', ...created }, spec: { rules: [{ http: {} }] } },
  );
  assert.deepEqual(t.columns, ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
  assert.deepEqual(t.rows[0], ['web', 'nginx', 'a.example.com,b.example.com,c.example.com,d.example.com + 2 more...', '10.0.0.1,10.0.0.2,lb.example.com', '80, 443', '60m']);
  assert.deepEqual(t.rows[1], ['catch-all', '<none>', '*', '', '80', '60m']);
});

test('NetworkPolicy: the pod selector as a label selector string', () => {
  const t = table('networkpolicies',
    { metadata: { name: 'web', ...created }, spec: { podSelector: { matchLabels: { tier: 'front', app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }, { key: 'canary', operator: 'DoesNotExist' }] } } },
    { metadata: { name: 'all', ...created }, spec: { podSelector: {} } },
  );
  assert.deepEqual(t.columns, ['Name', 'Pod-Selector', 'Age']);
  assert.deepEqual(t.rows.map((r) => r[1]), ['app=web,!canary,env in (dev,prod),tier=front', '<none>']);
});

test('PVC (v1.28: no VolumeAttributesClass): capacity and access modes only once bound; class from the beta annotation first', () => {
  const pending = { metadata: { name: 'data', ...created }, spec: { storageClassName: 'standard', resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } };
  const bound = {
    metadata: { name: 'logs', ...created, annotations: { 'volume.beta.kubernetes.io/storage-class': 'legacy' } },
    spec: { volumeName: 'pv-1', storageClassName: 'standard', volumeMode: 'Block' },
    status: { phase: 'Bound', capacity: { storage: '5Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOnce'] },
  };
  const t = table('persistentvolumeclaims', pending, bound);
  assert.deepEqual(t.columns, ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'Age']);
  assert.deepEqual(t.wide, ['VolumeMode']);
  assert.deepEqual(t.rows[0], ['data', 'Pending', '', '', '', 'standard', '60m', '<unset>']);
  assert.deepEqual(t.rows[1], ['logs', 'Bound', 'pv-1', '5Gi', 'RWO,RWX', 'legacy', '60m', 'Block']);
});

test('PV: capacity, modes, reclaim policy, phase (Terminating when deleted), claim', () => {
  const pv = {
    metadata: { name: 'pv-1', ...created, deletionTimestamp: '2026-01-01T00:59:00Z' },
    spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadOnlyMany'], persistentVolumeReclaimPolicy: 'Delete', claimRef: { namespace: 'ns', name: 'logs' }, storageClassName: 'fast', volumeMode: 'Filesystem' },
    status: { phase: 'Bound' },
  };
  const t = table('persistentvolumes', pv);
  assert.deepEqual(t.columns, ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'Reason', 'Age']);
  assert.deepEqual(t.rows[0], ['pv-1', '5Gi', 'ROX', 'Delete', 'Terminating', 'ns/logs', 'fast', '', '60m', 'Filesystem']);
});

test('PDB: min available / max unavailable as given (N/A when unset), allowed disruptions', () => {
  const t = table('poddisruptionbudgets',
    { metadata: { name: 'a', ...created }, spec: { minAvailable: 2 }, status: { disruptionsAllowed: 1 } },
    { metadata: { name: 'b', ...created }, spec: { maxUnavailable: '25%' } },
  );
  assert.deepEqual(t.columns, ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
  assert.deepEqual(t.rows, [['a', '2', 'N/A', 1, '60m'], ['b', 'N/A', '25%', 0, '60m']]);
});

test('HPA: reference, targets (current/target per metric, v1.28 style), min/max pods, replicas', () => {
  const hpa = {
    metadata: { name: 'web', ...created },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }] },
    status: { currentReplicas: 3 },
  };
  const t = table('horizontalpodautoscalers', hpa);
  assert.deepEqual(t.columns, ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
  assert.deepEqual(t.rows[0], ['web', 'Deployment/web', '<unknown>/60%', '<unset>', 10, 3, '60m']);
});

test('HPA targets: each metric source, current values from status by position, "+ N more..." past two', () => {
  const metrics = [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1k' } } },
  ];
  const statuses = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12, averageValue: '30m' } } }];
  const targets = (specMetrics: unknown[], current: unknown[] = []) => hpaTargets({ metadata: {}, spec: { metrics: specMetrics }, status: { currentMetrics: current } } as unknown as KubeObject);
  assert.equal(targets(metrics, statuses), '12%/50%, <unknown>/1k');
  assert.equal(targets([]), '<none>');
  assert.equal(targets([{ type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } }]), '<unknown>/30 (avg)');
  assert.equal(targets([{ type: 'Object', object: { target: { type: 'Value', value: '5' } } }], [{ type: 'Object', object: { current: { value: '7' } } }]), '7/5');
  assert.equal(targets([{ type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', target: { type: 'AverageValue', averageValue: '100Mi' } } }]), '<unknown>/100Mi');
  assert.equal(targets([...metrics, metrics[0]!, metrics[0]!]), '<unknown>/50%, <unknown>/1k + 2 more...');
});

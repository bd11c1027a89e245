// `kubectl get events`, nodes, pods, services, daemon sets and jobs with v1.28's columns, wide ones
// included (the server always sends them; kubectl shows priority 1 with -o wide), as checked
// against a real kube-apiserver v1.28.4.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { renderTable } from '../../../../src/sim/server/table.ts';
import { columnsFor } from '../../../../src/sim/server/tableColumns.ts';

const now = Date.parse('2026-01-01T01:00:00Z');
const created = { creationTimestamp: '2026-01-01T00:00:00Z' };

function table(resource: string, ...objects: Record<string, unknown>[]): { columns: string[]; rows: unknown[][] } {
  const t = JSON.parse(renderTable(objects as unknown as KubeObject[], {}, { columns: columnsFor(resource), includeObject: 'None', now, withColumnDefinitions: true }));
  return { columns: (t.columnDefinitions as { name: string }[]).map((c) => c.name), rows: t.rows.map((r: { cells: unknown[] }) => r.cells) };
}

test('Events: last and first seen, the object as kind/name, source, count 1 for a singleton', () => {
  const t = table('events',
    { metadata: { name: 'e1', ...created }, involvedObject: { kind: 'Pod', name: 'p1', fieldPath: 'spec.containers{c}' }, reason: 'Pulled', message: ' pulled \n', type: 'Normal', source: { component: 'kubelet', host: 'node-1' }, firstTimestamp: '2026-01-01T00:30:00Z', lastTimestamp: '2026-01-01T00:50:00Z', count: 3 },
    { metadata: { name: 'e2', ...created }, involvedObject: { kind: 'Pod', name: 'p1' }, reason: 'Test', message: 'hello', eventTime: null, firstTimestamp: null, lastTimestamp: null },
  );
  assert.deepEqual(t.columns, ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
  assert.deepEqual(t.rows, [
    ['10m', 'Normal', 'Pulled', 'pod/p1', 'spec.containers{c}', 'kubelet, node-1', 'pulled', '30m', 3, 'e1'],
    ['<unknown>', '', 'Test', 'pod/p1', '', '', 'hello', '<unknown>', 1, 'e2'],
  ]);
});

test('Nodes: Unknown without a Ready condition, roles from labels, kubelet version, addresses', () => {
  const t = table('nodes',
    { metadata: { name: 'bare', ...created } },
    { metadata: { name: 'cp', labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'master' }, ...created }, spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'False' }], addresses: [{ type: 'InternalIP', address: '10.0.0.5' }], nodeInfo: { kubeletVersion: 'v1.28.4', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://1.7' } } },
  );
  assert.deepEqual(t.columns, ['Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime']);
  assert.deepEqual(t.rows, [
    ['bare', 'Unknown', '<none>', '60m', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
    ['cp', 'NotReady,SchedulingDisabled', 'control-plane,master', '60m', 'v1.28.4', '10.0.0.5', '<none>', 'Debian', '6.1', 'containerd://1.7'],
  ]);
});

test('Pods: restarts as text with when the last one ended, nominated node, readiness gates', () => {
  const t = table('pods', {
    metadata: { name: 'p', ...created },
    spec: { containers: [{ name: 'c' }], readinessGates: [{ conditionType: 'example.com/ready' }, { conditionType: 'example.com/other' }] },
    status: { phase: 'Running', conditions: [{ type: 'example.com/ready', status: 'True' }], containerStatuses: [{ ready: true, restartCount: 2, lastState: { terminated: { finishedAt: '2026-01-01T00:55:00Z' } } }] },
  });
  assert.deepEqual(t.columns, ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
  assert.deepEqual(t.rows[0]?.slice(3), ['2 (5m ago)', '60m', '<none>', '<none>', '<none>', '1/2']);
});

test('Services: node ports beside ports, the selector with -o wide, a load balancer pending', () => {
  const t = table('services',
    { metadata: { name: 'np', ...created }, spec: { type: 'NodePort', clusterIP: '10.96.0.10', selector: { b: '2', a: '1' }, ports: [{ port: 80, nodePort: 32729, protocol: 'TCP' }] } },
    { metadata: { name: 'lb', ...created }, spec: { type: 'LoadBalancer', clusterIP: '10.96.0.11', ports: [{ port: 443, protocol: 'TCP' }] } },
  );
  assert.deepEqual(t.columns, ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector']);
  assert.deepEqual(t.rows, [
    ['np', 'NodePort', '10.96.0.10', '<none>', '80:32729/TCP', '60m', 'a=1,b=2'],
    ['lb', 'LoadBalancer', '10.96.0.11', '<pending>', '443/TCP', '60m', '<none>'],
  ]);
});

test('DaemonSets and Jobs: up-to-date, available, node selector, duration, completions', () => {
  const ds = table('daemonsets', { metadata: { name: 'ds', ...created }, spec: { selector: { matchLabels: { app: 'x' } }, template: { spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'busybox' }] } } }, status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 } });
  assert.deepEqual(ds.columns, ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers', 'Images', 'Selector']);
  assert.deepEqual(ds.rows[0], ['ds', 3, 3, 2, 3, 2, 'disk=ssd', '60m', 'c', 'busybox', 'app=x']);
  const jobs = table('jobs',
    { metadata: { name: 'done', ...created }, spec: { completions: 2, template: { spec: { containers: [{ name: 'c', image: 'i' }] } } }, status: { succeeded: 2, startTime: '2026-01-01T00:00:00Z', completionTime: '2026-01-01T00:02:30Z' } },
    { metadata: { name: 'wide', ...created }, spec: { parallelism: 3, template: { spec: { containers: [] } } }, status: {} },
  );
  assert.deepEqual(jobs.columns, ['Name', 'Completions', 'Duration', 'Age', 'Containers', 'Images', 'Selector']);
  assert.deepEqual(jobs.rows.map((r) => r.slice(0, 3)), [['done', '2/2', '2m30s'], ['wide', '0/1 of 3', '']]);
});

import type { KubeObject } from '../../shared/k8s.ts';
import type { KindModule } from './kindModule.ts';
import { list, NAME_COLUMN } from '../vocabulary/tableCells.ts';

// ComponentStatuses (v1, deprecated since v1.19 but still served): kube-apiserver probes the
// scheduler's and the controller manager's /healthz and each etcd server when asked, and stores
// nothing. The simulated cluster is its own scheduler, controller manager and etcd, all answering.

const COMPONENTS = ['scheduler', 'controller-manager', 'etcd-0'];

function componentStatuses(): KubeObject[] {
  // A Go struct's zero creationTimestamp prints as null; nothing else of metadata is set.
  return COMPONENTS.map((name) => ({
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name, creationTimestamp: null as unknown as string },
    conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
  }));
}

/** printComponentStatus: the Healthy condition's status, message and error. */
function healthy(o: Readonly<KubeObject>): Record<string, unknown> | undefined {
  return list(o, 'conditions').find((c) => c['type'] === 'Healthy');
}

const conditionColumn = (name: string, description: string, cell: (c: Record<string, unknown> | undefined) => string) => ({
  name, type: 'string' as const, format: '', description, priority: 0, cell: (o: Readonly<KubeObject>) => cell(healthy(o)),
});

export const componentStatusKind: KindModule = {
  api: { group: '', version: 'v1', resource: 'componentstatuses', kind: 'ComponentStatus', namespaced: false, shortNames: ['cs'], verbs: ['get', 'list'], virtual: true },
  madeUp: componentStatuses,
  warning: 'v1 ComponentStatus is deprecated in v1.19+',
  protobuf: false,
  columns: [
    NAME_COLUMN,
    conditionColumn('Status', 'Status of the component conditions', (c) => (c ? (c['status'] === 'True' ? 'Healthy' : 'Unhealthy') : 'Unknown')),
    conditionColumn('Message', 'Message of the component conditions', (c) => String(c?.['message'] ?? '')),
    conditionColumn('Error', 'Error of the component conditions', (c) => String(c?.['error'] ?? '')),
  ],
};

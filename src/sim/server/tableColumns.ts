// The columns `kubectl get` shows, per kind, computed server-side like a v1.28 kube-apiserver's
// printers do (pkg/printers/internalversion). Kinds not listed here get NAME_COLUMN and AGE_COLUMN,
// as custom resources without additionalPrinterColumns do. Kinds beyond the first workloads have
// their printers in <area>Columns.ts.
import { ADMISSION_COLUMNS } from './admissionColumns.ts';
import { CERTIFICATE_COLUMNS } from './certificateColumns.ts';
import { CORE_COLUMNS } from './coreColumns.ts';
import { HPA_COLUMNS } from './autoscalingColumns.ts';
import { ENDPOINT_SLICE_COLUMNS } from './endpointSliceColumns.ts';
import { QUOTA_COLUMNS } from './quotaColumns.ts';
import { SCHEDULING_COLUMNS } from './schedulingColumns.ts';
import { WORKLOAD_HISTORY_COLUMNS } from './workloadHistoryColumns.ts';
import { NETWORKING_COLUMNS } from './networkingColumns.ts';
import { RBAC_COLUMNS } from './rbacColumns.ts';
import { STORAGE_COLUMNS } from './storageColumns.ts';
import { AGE_COLUMN, col, containerCells, field, labelSelectorText, list, NAME_COLUMN, num, podStatusCell, quantityText, since, str, type Obj, type TableColumn } from './tableCells.ts';

function countKeys(obj: Obj, ...paths: string[]): number {
  let n = 0;
  for (const p of paths) {
    const v = field(obj, p);
    if (v && typeof v === 'object') n += Object.keys(v).length;
  }
  return n;
}

const replicasReady = (o: Obj) => `${num(o, 'status.readyReplicas')}/${num(o, 'spec.replicas')}`;

function podReady(o: Obj): string {
  const statuses = field(o, 'status.containerStatuses');
  const containers = field(o, 'spec.containers');
  const total = Array.isArray(containers) ? containers.length : 0;
  const ready = Array.isArray(statuses) ? statuses.filter((s) => (s as { ready?: unknown }).ready === true).length : 0;
  return `${ready}/${total}`;
}

function podRestarts(o: Obj): number {
  const statuses = field(o, 'status.containerStatuses');
  if (!Array.isArray(statuses)) return 0;
  return statuses.reduce((n: number, s) => n + (typeof (s as { restartCount?: unknown }).restartCount === 'number' ? (s as { restartCount: number }).restartCount : 0), 0);
}

function servicePorts(o: Obj): string {
  const ports = field(o, 'spec.ports');
  if (!Array.isArray(ports) || ports.length === 0) return '<none>';
  return ports.map((p) => `${(p as { port?: unknown }).port}/${(p as { protocol?: string }).protocol ?? 'TCP'}`).join(',');
}

const WORKLOAD_WIDE: TableColumn[] = [
  col('Containers', (o) => containerCells(field(o, 'spec.template.spec'), 'name'), 'string', 1),
  col('Images', (o) => containerCells(field(o, 'spec.template.spec'), 'image'), 'string', 1),
  col('Selector', (o) => labelSelectorText(field(o, 'spec.selector')), 'string', 1),
];

/** printBoolPtr: True, False, or <unset> when the field is absent. */
function boolText(o: Obj, path: string): string {
  const v = field(o, path);
  return typeof v === 'boolean' ? (v ? 'True' : 'False') : '<unset>';
}

// v1.28 has no Timezone column yet (kubernetes#122231 added it in v1.30).
const CRONJOB_COLUMNS: TableColumn[] = [
  NAME_COLUMN,
  col('Schedule', (o) => str(o, 'spec.schedule')),
  col('Suspend', (o) => boolText(o, 'spec.suspend'), 'boolean'),
  col('Active', (o) => list(o, 'status.active').length, 'integer'),
  col('Last Schedule', (o, now) => (field(o, 'status.lastScheduleTime') ? since(o, 'status.lastScheduleTime', now) : '<none>')),
  AGE_COLUMN,
  col('Containers', (o) => containerCells(field(o, 'spec.jobTemplate.spec.template.spec'), 'name'), 'string', 1),
  col('Images', (o) => containerCells(field(o, 'spec.jobTemplate.spec.template.spec'), 'image'), 'string', 1),
  col('Selector', (o) => labelSelectorText(field(o, 'spec.jobTemplate.spec.selector')), 'string', 1),
];

const PDB_COLUMNS: TableColumn[] = [
  NAME_COLUMN,
  col('Min Available', (o) => quantityText(field(o, 'spec.minAvailable'), 'N/A')),
  col('Max Unavailable', (o) => quantityText(field(o, 'spec.maxUnavailable'), 'N/A')),
  col('Allowed Disruptions', (o) => num(o, 'status.disruptionsAllowed'), 'integer'),
  AGE_COLUMN,
];

const COLUMNS_BY_RESOURCE: Record<string, TableColumn[]> = {
  namespaces: [NAME_COLUMN, col('Status', (o) => str(o, 'status.phase', 'Active')), AGE_COLUMN],
  configmaps: [NAME_COLUMN, col('Data', (o) => countKeys(o, 'data', 'binaryData'), 'integer'), AGE_COLUMN],
  secrets: [NAME_COLUMN, col('Type', (o) => str(o, 'type', 'Opaque')), col('Data', (o) => countKeys(o, 'data'), 'integer'), AGE_COLUMN],
  pods: [
    NAME_COLUMN,
    col('Ready', podReady),
    col('Status', podStatusCell),
    col('Restarts', podRestarts, 'integer'),
    AGE_COLUMN,
    col('IP', (o) => str(o, 'status.podIP', '<none>'), 'string', 1),
    col('Node', (o) => str(o, 'spec.nodeName', '<none>'), 'string', 1),
  ],
  services: [
    NAME_COLUMN,
    col('Type', (o) => str(o, 'spec.type', 'ClusterIP')),
    col('Cluster-IP', (o) => str(o, 'spec.clusterIP', '<none>')),
    col('External-IP', () => '<none>'),
    col('Port(s)', servicePorts),
    AGE_COLUMN,
  ],
  deployments: [
    NAME_COLUMN,
    col('Ready', replicasReady),
    col('Up-to-date', (o) => num(o, 'status.updatedReplicas'), 'integer'),
    col('Available', (o) => num(o, 'status.availableReplicas'), 'integer'),
    AGE_COLUMN,
    ...WORKLOAD_WIDE,
  ],
  replicasets: [
    NAME_COLUMN,
    col('Desired', (o) => num(o, 'spec.replicas'), 'integer'),
    col('Current', (o) => num(o, 'status.replicas'), 'integer'),
    col('Ready', (o) => num(o, 'status.readyReplicas'), 'integer'),
    AGE_COLUMN,
    ...WORKLOAD_WIDE,
  ],
  statefulsets: [NAME_COLUMN, col('Ready', replicasReady), AGE_COLUMN, ...WORKLOAD_WIDE.slice(0, 2)],
  daemonsets: [
    NAME_COLUMN,
    col('Desired', (o) => num(o, 'status.desiredNumberScheduled'), 'integer'),
    col('Current', (o) => num(o, 'status.currentNumberScheduled'), 'integer'),
    col('Ready', (o) => num(o, 'status.numberReady'), 'integer'),
    AGE_COLUMN,
  ],
  jobs: [NAME_COLUMN, col('Completions', (o) => `${num(o, 'status.succeeded')}/${num(o, 'spec.completions') || 1}`), AGE_COLUMN],
  cronjobs: CRONJOB_COLUMNS,
  poddisruptionbudgets: PDB_COLUMNS,
  nodes: [NAME_COLUMN, col('Status', () => 'Ready'), AGE_COLUMN],
  leases: [NAME_COLUMN, col('Holder', (o) => str(o, 'spec.holderIdentity')), AGE_COLUMN],
  customresourcedefinitions: [NAME_COLUMN, col('Created At', (o) => str(o, 'metadata.creationTimestamp'), 'date')],
  ...RBAC_COLUMNS,
  ...NETWORKING_COLUMNS,
  ...STORAGE_COLUMNS,
  ...HPA_COLUMNS,
  ...ENDPOINT_SLICE_COLUMNS,
  ...WORKLOAD_HISTORY_COLUMNS,
  ...QUOTA_COLUMNS,
  ...SCHEDULING_COLUMNS,
  ...ADMISSION_COLUMNS,
  ...CORE_COLUMNS,
  ...CERTIFICATE_COLUMNS,
};

export function columnsFor(resource: string): TableColumn[] {
  return COLUMNS_BY_RESOURCE[resource] ?? [NAME_COLUMN, AGE_COLUMN];
}

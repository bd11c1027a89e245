// The columns `kubectl get` shows, per kind, computed server-side like kube-apiserver's printers do
// (pkg/printers/internalversion). Kinds not listed here get NAME_COLUMN and AGE_COLUMN, as custom resources without
// additionalPrinterColumns do.
import type { KubeObject } from '../../shared/k8s.ts';

export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'date';
  format: string;
  description: string;
  /** 0: always shown; 1: only with `-o wide`. */
  priority: number;
  cell(obj: Readonly<KubeObject>, now: number): unknown;
}

type Obj = Readonly<KubeObject>;

function field(obj: Obj, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function num(obj: Obj, path: string): number {
  const v = field(obj, path);
  return typeof v === 'number' ? v : 0;
}

function str(obj: Obj, path: string, fallback = ''): string {
  const v = field(obj, path);
  return typeof v === 'string' ? v : fallback;
}

function countKeys(obj: Obj, ...paths: string[]): number {
  let n = 0;
  for (const p of paths) {
    const v = field(obj, p);
    if (v && typeof v === 'object') n += Object.keys(v).length;
  }
  return n;
}

/** kubectl's HumanDuration (k8s.io/apimachinery/pkg/util/duration). */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 192) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  const days = Math.floor(hours / 24);
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (years < 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

function age(obj: Obj, now: number): string {
  const created = Date.parse(str(obj, 'metadata.creationTimestamp'));
  return Number.isNaN(created) ? '<unknown>' : humanDuration(now - created);
}

export const NAME_COLUMN: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names',
  priority: 0,
  cell: (o) => o.metadata.name ?? '',
};

export const AGE_COLUMN: TableColumn = {
  name: 'Age',
  type: 'string',
  format: '',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  priority: 0,
  cell: age,
};

function col(name: string, cell: TableColumn['cell'], type: TableColumn['type'] = 'string', priority = 0, description = ''): TableColumn {
  return { name, type, format: '', description, priority, cell };
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

function containerField(o: Obj, key: 'name' | 'image'): string {
  const containers = field(o, 'spec.template.spec.containers');
  if (!Array.isArray(containers)) return '<none>';
  return containers.map((c) => String((c as Record<string, unknown>)[key] ?? '')).join(',');
}

function selectorText(o: Obj): string {
  const labels = field(o, 'spec.selector.matchLabels');
  if (!labels || typeof labels !== 'object') return '<none>';
  return Object.entries(labels as Record<string, unknown>).map(([k, v]) => `${k}=${String(v)}`).join(',');
}

const WORKLOAD_WIDE: TableColumn[] = [
  col('Containers', (o) => containerField(o, 'name'), 'string', 1),
  col('Images', (o) => containerField(o, 'image'), 'string', 1),
  col('Selector', selectorText, 'string', 1),
];

const COLUMNS_BY_RESOURCE: Record<string, TableColumn[]> = {
  namespaces: [NAME_COLUMN, col('Status', (o) => str(o, 'status.phase', 'Active')), AGE_COLUMN],
  configmaps: [NAME_COLUMN, col('Data', (o) => countKeys(o, 'data', 'binaryData'), 'integer'), AGE_COLUMN],
  secrets: [NAME_COLUMN, col('Type', (o) => str(o, 'type', 'Opaque')), col('Data', (o) => countKeys(o, 'data'), 'integer'), AGE_COLUMN],
  pods: [
    NAME_COLUMN,
    col('Ready', podReady),
    col('Status', (o) => (o.metadata.deletionTimestamp ? 'Terminating' : str(o, 'status.phase', 'Pending'))),
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
  nodes: [NAME_COLUMN, col('Status', () => 'Ready'), AGE_COLUMN],
  leases: [NAME_COLUMN, col('Holder', (o) => str(o, 'spec.holderIdentity')), AGE_COLUMN],
  customresourcedefinitions: [NAME_COLUMN, col('Created At', (o) => str(o, 'metadata.creationTimestamp'), 'date')],
};

export function columnsFor(resource: string): TableColumn[] {
  return COLUMNS_BY_RESOURCE[resource] ?? [NAME_COLUMN, AGE_COLUMN];
}

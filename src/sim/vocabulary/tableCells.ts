// What every `kubectl get` printer is made of: the column type, the NAME and AGE columns, and
// readers that turn object fields into cells the way kube-apiserver's printers format them.
import type { KubeObject } from '../../shared/k8s.ts';

export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'date' | 'boolean';
  format: string;
  description: string;
  /** 0: always shown; 1: only with `-o wide`. */
  priority: number;
  cell(obj: Readonly<KubeObject>, now: number): unknown;
}

export type Obj = Readonly<KubeObject>;

export function field(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function num(obj: unknown, path: string): number {
  const v = field(obj, path);
  return typeof v === 'number' ? v : 0;
}

export function str(obj: unknown, path: string, fallback = ''): string {
  const v = field(obj, path);
  return typeof v === 'string' ? v : fallback;
}

/** The maps in a list field ([] when it is missing or not a list). */
export function list(obj: unknown, path: string): Record<string, unknown>[] {
  const v = field(obj, path);
  return Array.isArray(v) ? v.filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null && !Array.isArray(i)) : [];
}

/** A resource.Quantity or IntOrString as the printers show it (numbers and strings alike). */
export function quantityText(v: unknown, missing: string): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : missing;
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

/** translateTimestampSince: how long ago a timestamp field was, '<unknown>' when unset. */
export function since(obj: unknown, path: string, now: number): string {
  const t = Date.parse(str(obj, path));
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
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
  cell: (o, now) => since(o, 'metadata.creationTimestamp', now),
};

/** The RFC 3339 creation time, for printers that show it instead of an age (roles, limit ranges). */
export const CREATED_AT_COLUMN: TableColumn = {
  name: 'Created At',
  type: 'date',
  format: '',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  priority: 0,
  cell: (o) => str(o, 'metadata.creationTimestamp'),
};

/** labels.FormatLabels: `k=v` pairs sorted by key, `<none>` when there are none. */
export function labelsText(labels: unknown): string {
  if (typeof labels !== 'object' || labels === null) return '<none>';
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${String((labels as Record<string, unknown>)[k])}`).join(',');
}

export function col(name: string, cell: TableColumn['cell'], type: TableColumn['type'] = 'string', priority = 0, description = ''): TableColumn {
  return { name, type, format: '', description, priority, cell };
}

/**
 * metav1.FormatLabelSelector: `k=v` for matchLabels, `k in (a,b)`, `k notin (a)`, `k`, `!k` for
 * matchExpressions, sorted by key; `<none>` when it selects nothing in particular.
 */
export function labelSelectorText(selector: unknown): string {
  const parts: [string, string][] = [];
  const labels = field(selector, 'matchLabels');
  if (labels && typeof labels === 'object') for (const [k, v] of Object.entries(labels)) parts.push([k, `${k}=${String(v)}`]);
  for (const e of list(selector, 'matchExpressions')) {
    const key = String(e['key'] ?? '');
    const values = Array.isArray(e['values']) ? e['values'].map(String).sort().join(',') : '';
    const op = e['operator'];
    if (op === 'In') parts.push([key, `${key} in (${values})`]);
    else if (op === 'NotIn') parts.push([key, `${key} notin (${values})`]);
    else if (op === 'Exists') parts.push([key, key]);
    else if (op === 'DoesNotExist') parts.push([key, `!${key}`]);
  }
  if (parts.length === 0) return '<none>';
  return parts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, text]) => text).join(',');
}

/** layoutContainerCells: the names and the images of a pod spec's containers, comma-separated. */
export function containerCells(podSpec: unknown, key: 'name' | 'image'): string {
  const containers = field(podSpec, 'containers');
  if (!Array.isArray(containers)) return '<none>';
  return containers.map((c) => String((c as Record<string, unknown>)[key] ?? '')).join(',');
}

interface ContainerStateView {
  waiting?: { reason?: string };
  terminated?: { reason?: string; exitCode?: number; signal?: number };
  running?: unknown;
}

/**
 * kubectl's STATUS for a Pod (printPod): the phase, unless a container says more — a waiting
 * reason (CrashLoopBackOff), a terminated reason (Completed, Error) — and Terminating while deleted.
 */
export function podStatusCell(pod: Readonly<KubeObject>): string {
  const status = (pod.status ?? {}) as { phase?: string; reason?: string; containerStatuses?: { ready?: boolean; state?: ContainerStateView }[] };
  let reason = status.reason || status.phase || 'Pending';
  let running = false;
  for (const c of [...(status.containerStatuses ?? [])].reverse()) {
    const state = c.state ?? {};
    if (state.waiting?.reason) reason = state.waiting.reason;
    else if (state.terminated?.reason) reason = state.terminated.reason;
    else if (state.terminated) reason = state.terminated.signal ? `Signal:${state.terminated.signal}` : `ExitCode:${state.terminated.exitCode ?? 0}`;
    else if (c.ready && state.running) running = true;
  }
  if (reason === 'Completed' && running) reason = 'Running';
  return pod.metadata.deletionTimestamp ? 'Terminating' : reason;
}

import { stringify } from 'yaml';
import type { KubeObject } from '../../shared/k8s.ts';
import { isSecret } from '../redact.ts';
import { relativeTime } from '../tree/format.ts';

// "Describe" for an object, shaped like `kubectl describe`: the metadata people look for first
// (name, namespace, labels, annotations, owners, finalizers, age), then what the kind holds — data
// keys for ConfigMaps and Secrets (Secret values never: their sizes, as kubectl prints them),
// replicas and containers for workloads, conditions — then the rest of spec and status, and the
// Events that name the object.

export interface DescribedEvent {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  eventTime?: string;
  source?: { component?: string };
  reportingController?: string;
}

const WIDTH = 14;

function field(name: string, value: string): string {
  return `${`${name}:`.padEnd(WIDTH)}${value}`;
}

function map(name: string, values: Record<string, string> | undefined): string[] {
  const entries = Object.entries(values ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  if (entries.length === 0) return [field(name, '<none>')];
  return entries.map(([k, v], i) => `${i === 0 ? `${name}:`.padEnd(WIDTH) : ' '.repeat(WIDTH)}${k}=${v}`);
}

function indent(text: string, by = 2): string[] {
  return text.trimEnd().split('\n').map((l) => `${' '.repeat(by)}${l}`);
}

function bytes(n: number): string {
  return `${n} byte${n === 1 ? '' : 's'}`;
}

function dataSection(obj: KubeObject): string[] {
  const out: string[] = [];
  const data = obj['data'] as Record<string, string> | undefined;
  if (isSecret(obj)) {
    out.push(field('Type', String(obj['type'] ?? 'Opaque')), '', 'Data', '====');
    const keys = Object.keys(data ?? {}).sort();
    if (keys.length === 0) out.push('<none>');
    for (const k of keys) out.push(`${k}:  ${bytes(Buffer.from(data![k] ?? '', 'base64').length)}`);
    return out;
  }
  out.push('', 'Data', '====');
  const keys = Object.keys(data ?? {}).sort();
  if (keys.length === 0) out.push('<none>');
  for (const k of keys) out.push(`${k}:`, '----', ...String(data![k]).trimEnd().split('\n'), '');
  return out;
}

function workloadSection(obj: KubeObject): string[] {
  const spec = (obj['spec'] ?? {}) as { replicas?: number; selector?: { matchLabels?: Record<string, string> }; template?: { spec?: { containers?: { name: string; image?: string }[] } } };
  const status = (obj['status'] ?? {}) as { replicas?: number; updatedReplicas?: number; readyReplicas?: number; availableReplicas?: number };
  const out: string[] = [];
  if (spec.selector?.matchLabels) out.push(field('Selector', Object.entries(spec.selector.matchLabels).map(([k, v]) => `${k}=${v}`).join(',')));
  if (spec.replicas !== undefined) {
    out.push(field('Replicas', `${spec.replicas} desired | ${status.updatedReplicas ?? 0} updated | ${status.replicas ?? 0} total | ${status.availableReplicas ?? 0} available | ${status.readyReplicas ?? 0} ready`));
  }
  const containers = spec.template?.spec?.containers ?? (obj['spec'] as { containers?: { name: string; image?: string }[] } | undefined)?.containers;
  if (containers?.length) {
    out.push('Containers:');
    for (const c of containers) out.push(`  ${c.name}:`, `    Image:  ${c.image ?? '<none>'}`);
  }
  return out;
}

function conditions(obj: KubeObject): string[] {
  const list = ((obj['status'] ?? {}) as { conditions?: { type: string; status: string; reason?: string; message?: string }[] }).conditions;
  if (!list?.length) return [];
  const rows = list.map((c) => [c.type, c.status, c.reason ?? '', c.message ?? '']);
  const w0 = Math.max(4, ...rows.map((r) => r[0]!.length));
  const w1 = Math.max(6, ...rows.map((r) => r[1]!.length));
  const w2 = Math.max(6, ...rows.map((r) => r[2]!.length));
  return ['Conditions:', `  ${'Type'.padEnd(w0)}  ${'Status'.padEnd(w1)}  ${'Reason'.padEnd(w2)}  Message`, ...rows.map((r) => `  ${r[0]!.padEnd(w0)}  ${r[1]!.padEnd(w1)}  ${r[2]!.padEnd(w2)}  ${r[3]}`.trimEnd())];
}

function rest(obj: KubeObject, key: 'spec' | 'status', shown: readonly string[]): string[] {
  const value = obj[key];
  if (typeof value !== 'object' || value === null) return [];
  const remaining = Object.fromEntries(Object.entries(value).filter(([k]) => !shown.includes(k)));
  if (Object.keys(remaining).length === 0) return [];
  return [`${key[0]!.toUpperCase()}${key.slice(1)}:`, ...indent(stringify(remaining, { lineWidth: 0 }))];
}

export function describeText(obj: KubeObject, events: readonly DescribedEvent[] | undefined, now: number): string {
  const m = obj.metadata;
  const created = m.creationTimestamp ? Date.parse(m.creationTimestamp) : NaN;
  const lines: string[] = [
    field('Name', m.name ?? '<none>'),
    ...(m.namespace ? [field('Namespace', m.namespace)] : []),
    field('Kind', `${obj.kind ?? '?'} (${obj.apiVersion ?? '?'})`),
    ...map('Labels', m.labels),
    ...map('Annotations', m.annotations),
    field('UID', m.uid ?? '<none>'),
    field('Resource', `resourceVersion ${m.resourceVersion ?? '?'}${m.generation !== undefined ? `, generation ${m.generation}` : ''}`),
    field('Created', Number.isFinite(created) ? `${m.creationTimestamp} (${relativeTime(now - created)})` : '<unknown>'),
  ];
  if (m.ownerReferences?.length) lines.push(field('Controlled By', m.ownerReferences.map((o) => `${o.kind}/${o.name}`).join(', ')));
  if (m.finalizers?.length) lines.push(field('Finalizers', m.finalizers.join(', ')));
  if (m.deletionTimestamp) lines.push(field('Deleting', `since ${m.deletionTimestamp} (waits for its finalizers)`));

  let shownSpec: string[] = [];
  if (obj.kind === 'ConfigMap' || isSecret(obj)) lines.push(...dataSection(obj));
  else {
    const workload = workloadSection(obj);
    if (workload.length) {
      lines.push(...workload);
      shownSpec = ['replicas', 'selector', 'template', 'containers'];
    }
  }
  lines.push(...conditions(obj));
  lines.push(...rest(obj, 'spec', shownSpec));
  lines.push(...rest(obj, 'status', ['conditions', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas']));

  if (lines.at(-1) !== '') lines.push('');
  lines.push('Events:');
  if (events === undefined) lines.push('  <could not be listed>');
  else if (events.length === 0) lines.push('  <none>');
  else {
    lines.push('  Type     Reason              Age    From                 Message');
    for (const e of events) {
      const at = Date.parse(e.lastTimestamp ?? e.eventTime ?? '');
      const age = Number.isFinite(at) ? relativeTime(now - at).replace(/ ago$/, '') : '?';
      const from = e.source?.component ?? e.reportingController ?? '';
      lines.push(`  ${(e.type ?? '').padEnd(8)} ${(e.reason ?? '').padEnd(19)} ${age.padEnd(6)} ${from.padEnd(20)} ${e.message ?? ''}${e.count && e.count > 1 ? ` (×${e.count})` : ''}`.trimEnd());
    }
  }
  return `${lines.join('\n')}\n`;
}

import type { DebugProtocol } from '@vscode/debugprotocol';
import type { KubeObject } from '../shared/k8s.ts';

// Turns plain JSON (records, objects, queue snapshots) into DAP variables: a short preview per value,
// children on demand through a variablesReference. Kubernetes objects preview as `Kind ns/name rv N`.
// A value inside a Kubernetes object remembers which object and field it is (its origin), so the
// Variables view can offer a data breakpoint on it.

/** The object a value belongs to and the path to it (`[]`: the object itself). */
export interface ValueOrigin {
  kind: string;
  namespace?: string;
  name: string;
  path: (string | number)[];
}

export type Expandable = { value: unknown; origin?: ValueOrigin };

/** A Kubernetes object (with its kind) is an origin of its own; `kind` names it when the object does not. */
export function objectOrigin(value: unknown, kind?: string): ValueOrigin | undefined {
  const o = value as Partial<KubeObject> | null;
  const k = kind ?? o?.kind;
  if (!o || typeof o !== 'object' || !k || typeof o.metadata?.name !== 'string') return undefined;
  return { kind: k, namespace: o.metadata.namespace, name: o.metadata.name, path: [] };
}

/** The origin of a container's child `name` (an array's children are indexes). */
export function childOrigin(container: Expandable, name: string): ValueOrigin | undefined {
  if (!container.origin) return undefined;
  return { ...container.origin, path: [...container.origin.path, Array.isArray(container.value) ? Number(name) : name] };
}

export function preview(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `Array(${value.length})`;
  const o = value as Partial<KubeObject>;
  if (o.metadata && typeof o.metadata === 'object' && o.metadata.name) {
    const ns = o.metadata.namespace ? `${o.metadata.namespace}/` : '';
    return `${o.kind ?? 'object'} ${ns}${o.metadata.name}${o.metadata.resourceVersion ? ` rv ${o.metadata.resourceVersion}` : ''}`;
  }
  const keys = Object.keys(value);
  const head = keys.slice(0, 4).map((k) => {
    const v = (value as Record<string, unknown>)[k];
    return `${k}: ${v !== null && typeof v === 'object' ? (Array.isArray(v) ? `[…${v.length}]` : '{…}') : preview(v)}`;
  });
  return `{${head.join(', ')}${keys.length > 4 ? ', …' : ''}}`;
}

export function isExpandable(value: unknown): boolean {
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}

/** The children of an expandable value; `ref` registers a child value and returns its handle. */
export function childrenOf(container: Expandable, ref: (v: Expandable) => number): DebugProtocol.Variable[] {
  const { value } = container;
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).map(([name, v]) => toVariable(name, v, ref, childOrigin(container, name)));
}

export function toVariable(name: string, value: unknown, ref: (v: Expandable) => number, origin = objectOrigin(value)): DebugProtocol.Variable {
  return {
    name,
    value: preview(value),
    type: Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value,
    variablesReference: isExpandable(value) ? ref({ value, origin: objectOrigin(value) ?? origin }) : 0,
  };
}

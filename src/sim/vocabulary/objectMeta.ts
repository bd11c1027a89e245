import type { KubeObject } from '../../shared/k8s.ts';
import { jsonEqual } from './jsonEqual.ts';

// Small facts about objects the write path needs.

/** RFC 3339 with second precision, as the API server writes timestamps. */
let lastSecond = NaN;
let lastStamp = '';

export function timestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastStamp = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
  }
  return lastStamp;
}

/** Whether anything but metadata and status changed: what bumps `generation` where it is kept. */
export function specChanged(before: Readonly<KubeObject>, after: Readonly<KubeObject>): boolean {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const k of keys) {
    if (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind') continue;
    if (!jsonEqual(before[k] ?? null, after[k] ?? null)) return true;
  }
  return false;
}

/**
 * A custom resource's rule: anything but metadata changed, status included (with a /status
 * subresource the main resource's writes keep the stored status, so there only spec counts).
 */
export function nonMetadataChanged(before: Readonly<KubeObject>, after: Readonly<KubeObject>): boolean {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const k of keys) if (k !== 'metadata' && !jsonEqual(before[k] ?? null, after[k] ?? null)) return true;
  return false;
}

/** Reads a dotted path (`spec.replicas`) from an object. */
export function readPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Writes a dotted path, creating maps on the way. */
export function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (typeof next !== 'object' || next === null) cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1] ?? ''] = value;
}

export function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

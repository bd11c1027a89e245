import type { KubeObject } from '../../shared/k8s.ts';

// What a change changed, as a shape: the field paths whose values differ (down to a few levels),
// not the values. The simulated cluster's own controllers make many changes of one shape — every
// Deployment's status moving on through a rollout, every Pod's phase — and hiding one of them from
// the controller tests what hiding any of them would.

const DEPTH = 3;
/** Bookkeeping every write moves: no part of what changed. */
const IGNORED = new Set(['metadata.resourceVersion', 'metadata.managedFields', 'metadata.generation']);

/** `status.readyReplicas,status.conditions` — sorted, so changes alike have equal shapes. */
export function changeShape(previous: Readonly<KubeObject> | undefined, next: Readonly<KubeObject>): string {
  const paths: string[] = [];
  differing(previous, next, '', 0, paths);
  return paths.sort().join(',');
}

function differing(a: unknown, b: unknown, path: string, depth: number, out: string[]): void {
  if (IGNORED.has(path)) return;
  if (a === b) return;
  const objects = typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a) && !Array.isArray(b);
  if (!objects || depth >= DEPTH) {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(path);
    return;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(ra), ...Object.keys(rb)])) differing(ra[key], rb[key], path ? `${path}.${key}` : key, depth + 1, out);
}

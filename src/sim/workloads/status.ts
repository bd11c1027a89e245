import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import type { WorkloadCluster } from './workloadCluster.ts';

// Status writes through /status, only when something changed (a real controller compares too, or
// every resync would bump resourceVersions and wake every watcher).

/**
 * Replaces the fields of `status` given (others stay) and writes if that changed anything, or
 * when `metadataChanged` (a /status write carries the annotations a controller records there).
 */
export function writeStatusIfChanged(cluster: WorkloadCluster, gvr: GroupVersionResource, object: KubeObject, status: Record<string, unknown>, ctx: RequestContext, metadataChanged = false): KubeObject {
  const before = (object.status ?? {}) as Record<string, unknown>;
  const after: Record<string, unknown> = { ...before, ...status };
  for (const [k, v] of Object.entries(after)) if (v === undefined) delete after[k];
  if (jsonEqual(before, after) && !metadataChanged) return object;
  object.status = after;
  return cluster.update(gvr, object.metadata.namespace ?? '', object.metadata.name ?? '', object, 'status', ctx).object as KubeObject;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
}

/**
 * Conditions with `next` set: a condition whose status, reason and message are unchanged keeps its
 * times, as the controllers' SetCondition helpers do; `withUpdateTime` also stamps lastUpdateTime
 * (Deployments have it, most kinds do not).
 */
export function setCondition(conditions: readonly Condition[] | undefined, next: Condition, now: string, withUpdateTime = false): Condition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === next.type);
  const old = i >= 0 ? list[i] : undefined;
  if (old && old.status === next.status && old.reason === next.reason && old.message === next.message) return list;
  const condition: Condition = { ...next };
  if (withUpdateTime) condition.lastUpdateTime = now;
  condition.lastTransitionTime = old && old.status === next.status ? (old.lastTransitionTime ?? now) : now;
  if (i >= 0) list[i] = condition;
  else list.push(condition);
  return list;
}

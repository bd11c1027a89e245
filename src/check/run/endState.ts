import type { SimClusterApi } from '../../sim/index.ts';
import type { KubeObject } from '../../shared/k8s.ts';

// What a run ends with: every object the cluster stores, read in process, except what no
// controller's correctness is judged by — Events (a record of what happened, not state) and
// Leases (leader election and node heartbeats, renewed on a timer).

const NOT_STATE = new Set(['/events', 'events.k8s.io/events', 'coordination.k8s.io/leases']);

export function endState(cluster: SimClusterApi): KubeObject[] {
  const seen = new Set<string>();
  const objects: KubeObject[] = [];
  for (const info of cluster.resources.all()) {
    const storage = `${info.group}/${info.resource}`;
    if (info.virtual || seen.has(storage) || NOT_STATE.has(storage) || info.version !== info.storageVersion || !info.verbs.includes('list')) continue;
    seen.add(storage);
    for (const item of cluster.list(info, {}).items) objects.push(item.object as KubeObject);
  }
  return objects;
}

import type { SimClusterApi } from '../../sim/index.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { isNotState } from './notState.ts';

// What a run ends with: every object the cluster stores, read in process, except what no
// controller's correctness is judged by (Events, Leases).

export function endState(cluster: SimClusterApi): KubeObject[] {
  const seen = new Set<string>();
  const objects: KubeObject[] = [];
  for (const info of cluster.resources.all()) {
    const storage = `${info.group}/${info.resource}`;
    if (info.virtual || seen.has(storage) || isNotState(info.group, info.resource) || info.version !== info.storageVersion || !info.verbs.includes('list')) continue;
    seen.add(storage);
    for (const item of cluster.list(info, {}).items) objects.push(item.object as KubeObject);
  }
  return objects;
}

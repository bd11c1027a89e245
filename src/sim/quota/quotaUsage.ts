import type { KubeObject } from '../../shared/k8s.ts';
import { Quantity } from '../vocabulary/quantity.ts';
import { chargedResources, evaluatorFor } from './evaluators.ts';
import { scopesOf } from './quotaScopes.ts';
import { add, mask, resourceList, type ResourceList } from '../vocabulary/resourceList.ts';

// What the quota controller writes into a ResourceQuota's status (syncResourceQuota): `hard` is
// the spec's, `used` is what the namespace's objects in the quota's scopes use of each hard
// resource some evaluator measures (zero when nothing uses it); the other hard resources keep the
// usage the status already had, and resources no longer hard leave it.

/** The objects of one resource in the quota's namespace, as stored now ([] when it is not served). */
export type ObjectsOf = (group: string, resource: string) => readonly Readonly<KubeObject>[];

export function hardOf(quota: Readonly<KubeObject>): ResourceList {
  return resourceList(((quota.spec ?? {}) as { hard?: unknown }).hard);
}

export function calculateUsed(quota: Readonly<KubeObject>, objectsOf: ObjectsOf, nowMs: number): ResourceList {
  const hardNames = [...hardOf(quota).keys()];
  const scopes = scopesOf(quota);
  let used: ResourceList = new Map();
  for (const { group, resource } of chargedResources(hardNames)) {
    const evaluator = evaluatorFor(group, resource);
    const measured = evaluator.matchingResources(hardNames);
    let sum: ResourceList = new Map(measured.map((n) => [n, new Quantity(0n, 1n)]));
    for (const object of objectsOf(group, resource)) {
      if (!scopes.every((s) => evaluator.matchesScope(s, object))) continue;
      sum = add(sum, mask(evaluator.usage(object, nowMs), measured));
    }
    used = add(used, sum);
  }
  const previous = resourceList(((quota.status ?? {}) as { used?: unknown }).used);
  return mask(new Map([...previous, ...used]), hardNames);
}

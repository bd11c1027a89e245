import type { GroupVersionResource, KubeObject, OwnerReference } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import { isControlledBy } from './pods.ts';
import { mutable, PODS, type WorkloadCluster } from './workloadCluster.ts';

// Which Pods a controller owns (pkg/controller's PodControllerRefManager.ClaimPods): those it
// controls whose labels still match its selector; orphans that match are adopted (a controller
// reference added), and its Pods that no longer match are released (the reference removed), so a
// Pod relabelled out of a ReplicationController leaves it and is replaced.

function hasController(pod: Readonly<KubeObject>): boolean {
  return (pod.metadata.ownerReferences ?? []).some((r) => r.controller);
}

/**
 * The Pods `owner` owns after adopting and releasing; `matches` is its selector. A write that
 * loses a race (a conflict) throws, and the caller's loop retries.
 */
export function claimPods(
  cluster: WorkloadCluster,
  owner: Readonly<KubeObject>,
  ownerRef: OwnerReference,
  pods: readonly KubeObject[],
  matches: (labels: Record<string, string>) => boolean,
  ctx: RequestContext,
): KubeObject[] {
  return claimObjects(cluster, PODS, owner, ownerRef, pods, (pod) => matches(pod.metadata.labels ?? {}), ctx);
}

/**
 * The same claim for objects of any kind (a Deployment's ReplicaSets, as its controller's
 * ReplicaSetControllerRefManager claims them): a Deployment made again over ReplicaSets orphaned
 * from another adopts the one of its template instead of making a new one.
 */
export function claimObjects(
  cluster: WorkloadCluster,
  gvr: GroupVersionResource,
  owner: Readonly<KubeObject>,
  ownerRef: OwnerReference,
  objects: readonly KubeObject[],
  matches: (object: Readonly<KubeObject>) => boolean,
  ctx: RequestContext,
): KubeObject[] {
  const uid = owner.metadata.uid;
  const claimed: KubeObject[] = [];
  for (const object of objects) {
    if (isControlledBy(object, uid)) {
      if (matches(object)) claimed.push(object);
      else if (!object.metadata.deletionTimestamp) writeOwners(cluster, gvr, object, (object.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid), ctx);
    } else if (!hasController(object) && matches(object) && !object.metadata.deletionTimestamp && !owner.metadata.deletionTimestamp) {
      claimed.push(writeOwners(cluster, gvr, object, [...(object.metadata.ownerReferences ?? []), ownerRef], ctx));
    }
  }
  return claimed;
}

function writeOwners(cluster: WorkloadCluster, gvr: GroupVersionResource, object: Readonly<KubeObject>, owners: OwnerReference[], ctx: RequestContext): KubeObject {
  const next = mutable(object);
  if (owners.length > 0) next.metadata.ownerReferences = owners;
  else delete next.metadata.ownerReferences;
  return cluster.update(gvr, object.metadata.namespace ?? '', object.metadata.name ?? '', next, undefined, ctx).object as KubeObject;
}

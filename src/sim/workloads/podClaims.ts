import type { KubeObject, OwnerReference } from '../../shared/k8s.ts';
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
  const uid = owner.metadata.uid;
  const claimed: KubeObject[] = [];
  for (const pod of pods) {
    const labels = pod.metadata.labels ?? {};
    if (isControlledBy(pod, uid)) {
      if (matches(labels)) claimed.push(pod);
      else if (!pod.metadata.deletionTimestamp) writeOwners(cluster, pod, (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid), ctx);
    } else if (!hasController(pod) && matches(labels) && !pod.metadata.deletionTimestamp && !owner.metadata.deletionTimestamp) {
      claimed.push(writeOwners(cluster, pod, [...(pod.metadata.ownerReferences ?? []), ownerRef], ctx));
    }
  }
  return claimed;
}

function writeOwners(cluster: WorkloadCluster, pod: Readonly<KubeObject>, owners: OwnerReference[], ctx: RequestContext): KubeObject {
  const next = mutable(pod);
  if (owners.length > 0) next.metadata.ownerReferences = owners;
  else delete next.metadata.ownerReferences;
  return cluster.update(PODS, pod.metadata.namespace ?? '', pod.metadata.name ?? '', next, undefined, ctx).object as KubeObject;
}

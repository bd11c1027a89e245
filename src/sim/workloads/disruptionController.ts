import { isNotFound } from '../../shared/apiError.ts';
import { splitKey } from '../../shared/keys.ts';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import { labelSelectorText, parseLabelSelector } from '../../shared/labelSelector.ts';
import type { RequestContext } from '../store/types.ts';
import type { ControllerDefinition } from './controllerLoop.ts';
import { PodSelectors } from './podSelectors.ts';
import { isReady, timeString } from './pods.ts';
import { setCondition, writeStatusIfChanged, type Condition } from './status.ts';
import { DEPLOYMENTS, getObject, listObjects, PODS, REPLICASETS, STATEFULSETS, type WorkloadCluster } from './workloadCluster.ts';

// The disruption controller (pkg/controller/disruption): each PodDisruptionBudget's status says how
// many of its Pods are healthy (ready, not being deleted, not just evicted), how many must be, and so
// how many disruptions are allowed now — what the eviction API, and so `kubectl drain`, decides on.
// A budget with minAvailable as a count expects the Pods it selects; a percentage or maxUnavailable
// is taken of the scale of the Pods' controllers (Deployment, ReplicaSet, StatefulSet).

export const PDBS: GroupVersionResource = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };
/** An eviction not yet seen through (the Pod still there) stops counting against the budget after this. */
const DELETION_TIMEOUT_MS = 2 * 60_000;

interface PdbSpec {
  selector?: unknown;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
}

interface PdbStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  conditions?: (Condition & { observedGeneration?: number })[];
}

/** A count, or a percentage of `total` rounded up (intstr.GetScaledValueFromIntOrPercent with roundUp). */
function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const percent = Number(String(value).replace(/%$/, ''));
  return Math.ceil((percent * total) / 100);
}

/** The replicas the Pods' controllers want, each controller once (getExpectedScale); throws for a Pod without one. */
function expectedScale(cluster: WorkloadCluster, pods: KubeObject[], ctx: RequestContext): number {
  const seen = new Map<string, number>();
  for (const pod of pods) {
    const owner = pod.metadata.ownerReferences?.find((r) => r.controller);
    const namespace = pod.metadata.namespace ?? '';
    let scaleOwner: KubeObject | undefined;
    if (owner?.kind === 'ReplicaSet') {
      const rs = getObject(cluster, REPLICASETS, namespace, owner.name, ctx);
      const deployment = rs?.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'Deployment');
      scaleOwner = deployment ? getObject(cluster, DEPLOYMENTS, namespace, deployment.name, ctx) : rs;
    } else if (owner?.kind === 'StatefulSet') {
      scaleOwner = getObject(cluster, STATEFULSETS, namespace, owner.name, ctx);
    }
    if (!scaleOwner) throw new Error(`found no controllers for pod "${pod.metadata.name ?? ''}"`);
    seen.set(scaleOwner.metadata.uid ?? '', (scaleOwner.spec as { replicas?: number } | undefined)?.replicas ?? 1);
  }
  let total = 0;
  for (const replicas of seen.values()) total += replicas;
  return total;
}

export function disruptionController(cluster: WorkloadCluster): ControllerDefinition {
  // A nil selector selects nothing; an empty one, every Pod of the namespace.
  const index = new PodSelectors((pdb) => {
    const selector = (pdb.spec as PdbSpec | undefined)?.selector;
    return selector ? parseLabelSelector(labelSelectorText(selector)) : undefined;
  });

  return {
    name: 'disruption-controller',
    watches: [
      { gvr: PDBS, keysFor: index.ownerKeys },
      { gvr: PODS, keysFor: index.podKeys },
    ],
    reconcile(key: string, ctx: RequestContext): number | void {
      const { namespace, name } = splitKey(key);
      const pdb = getObject(cluster, PDBS, namespace, name, ctx);
      if (!pdb || pdb.metadata.deletionTimestamp) return;
      const spec = (pdb.spec ?? {}) as PdbSpec;
      const status = (pdb.status ?? {}) as PdbStatus;
      const now = cluster.clock.now();
      const pods = spec.selector ? listObjects(cluster, PODS, namespace, ctx, labelSelectorText(spec.selector)) : [];

      const disruptedPods: Record<string, string> = {};
      let recheckIn: number | undefined;
      for (const [podName, since] of Object.entries(status.disruptedPods ?? {})) {
        const pod = pods.find((p) => p.metadata.name === podName);
        const expires = Date.parse(since) + DELETION_TIMEOUT_MS;
        if (!pod || pod.metadata.deletionTimestamp || expires <= now) continue;
        disruptedPods[podName] = since;
        recheckIn = Math.min(recheckIn ?? Infinity, expires - now);
      }

      let expectedPods: number;
      let desiredHealthy: number;
      let failure: string | undefined;
      try {
        if (spec.maxUnavailable !== undefined) {
          expectedPods = expectedScale(cluster, pods, ctx);
          desiredHealthy = Math.max(0, expectedPods - scaled(spec.maxUnavailable, expectedPods));
        } else if (typeof spec.minAvailable === 'number') {
          expectedPods = pods.length;
          desiredHealthy = spec.minAvailable;
        } else if (spec.minAvailable !== undefined) {
          expectedPods = expectedScale(cluster, pods, ctx);
          desiredHealthy = scaled(spec.minAvailable, expectedPods);
        } else {
          [expectedPods, desiredHealthy] = [0, 0];
        }
      } catch (err) {
        [expectedPods, desiredHealthy, failure] = [0, 0, (err as Error).message];
      }
      const currentHealthy = pods.filter((p) => !p.metadata.deletionTimestamp && isReady(p) && !(p.metadata.name! in disruptedPods)).length;
      const disruptionsAllowed = failure || expectedPods <= 0 ? 0 : Math.max(0, currentHealthy - desiredHealthy);

      const generation = pdb.metadata.generation ?? 0;
      const condition: Condition = failure
        ? { type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: failure }
        : disruptionsAllowed > 0
          ? { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '' }
          : { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '' };
      const conditions = setCondition(status.conditions, condition, timeString(now)).map((c) => {
        // metav1.Condition's field order, with the generation this status is for.
        const { type, status: s, lastTransitionTime, reason, message } = c;
        return { type, status: s, observedGeneration: generation, lastTransitionTime, reason, message };
      });
      try {
        writeStatusIfChanged(cluster, PDBS, pdb, {
          observedGeneration: generation,
          disruptedPods: Object.keys(disruptedPods).length > 0 ? disruptedPods : undefined,
          disruptionsAllowed,
          currentHealthy,
          desiredHealthy,
          expectedPods,
          conditions,
        }, ctx);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      return recheckIn;
    },
  };
}

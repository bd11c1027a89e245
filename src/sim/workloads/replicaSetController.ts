import { objectKey, splitKey } from '../../shared/keys.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { ApiError, isNotFound } from '../../shared/apiError.ts';
import { labelSelectorText } from '../../shared/labelSelector.ts';
import type { RequestContext } from '../store/types.ts';
import { controllerKeyOf, type ControllerDefinition } from './controllerLoop.ts';
import { controllerRef, isActive, isAvailable, isControlledBy, isReady, phaseOf, podFromTemplate, timeString } from './pods.ts';
import { replicaFailureConditions } from './replicaFailure.ts';
import { getObject, listObjects, PODS, REPLICASETS, type WorkloadCluster } from './workloadCluster.ts';
import { eventRecorder } from './eventRecorder.ts';
import { writeStatusIfChanged, type Condition } from './status.ts';

// The ReplicaSet controller (pkg/controller/replicaset): keeps spec.replicas active Pods, deleting
// the least useful first, and reports replicas, ready and available counts in status, and a
// ReplicaFailure condition while admission refuses its Pods.

/** How soon a sync whose Pods were refused is tried again (a quota may have room by then). */
const RETRY_FAILED_MS = 1000;

/** Pods that go first when scaling down: unscheduled, then pending, then not ready, then newest. */
export function deletionRank(pod: Readonly<KubeObject>): [number, number, number, number] {
  const spec = (pod.spec ?? {}) as { nodeName?: string };
  const phaseRank = { Pending: 0, Unknown: 1, Running: 2 }[phaseOf(pod)] ?? 0;
  return [spec.nodeName ? 1 : 0, phaseRank, isReady(pod) ? 1 : 0, -Date.parse(pod.metadata.creationTimestamp ?? '')];
}

export function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

export function replicaSetController(cluster: WorkloadCluster): ControllerDefinition {
  const events = eventRecorder(cluster, { component: 'replicaset-controller' });
  return {
    name: 'replicaset-controller',
    watches: [
      { gvr: REPLICASETS, keysFor: (rs) => [objectKey(rs)] },
      { gvr: PODS, keysFor: (pod) => controllerKeyOf(pod, 'ReplicaSet') },
    ],
    reconcile(key: string, ctx: RequestContext): number | void {
      const { namespace, name } = splitKey(key);
      const rs = getObject(cluster, REPLICASETS, namespace, name, ctx);
      if (!rs || rs.metadata.deletionTimestamp) return;
      const spec = (rs.spec ?? {}) as { replicas?: number; selector?: unknown; template?: unknown; minReadySeconds?: number };
      const pods = listObjects(cluster, PODS, namespace, ctx, labelSelectorText(spec.selector)).filter((p) => isControlledBy(p, rs.metadata.uid));
      const active = pods.filter(isActive);
      const want = spec.replicas ?? 1;
      let failure: { reason: 'FailedCreate'; message: string } | undefined;
      if (active.length < want) {
        const owner = controllerRef(rs, 'apps/v1', 'ReplicaSet');
        for (let i = active.length; i < want; i++) {
          try {
            const pod = cluster.create(PODS, namespace, podFromTemplate(spec.template, owner, namespace, { generateName: `${name}-` }), ctx).object;
            events.record(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name ?? ''}`, ctx);
          } catch (err) {
            // Admission refused the Pod (a quota, a LimitRange): the status says so, and the sync is tried again.
            if (!(err instanceof ApiError) || err.code !== 403) throw err;
            events.record(rs, 'Warning', 'FailedCreate', `Error creating: ${err.message}`, ctx);
            failure = { reason: 'FailedCreate', message: err.message };
            break;
          }
        }
      } else if (active.length > want) {
        const doomed = [...active].sort((a, b) => compareRank(deletionRank(a), deletionRank(b))).slice(0, active.length - want);
        for (const pod of doomed) {
          try {
            cluster.delete(PODS, namespace, pod.metadata.name ?? '', {}, ctx);
            events.record(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name ?? ''}`, ctx);
          } catch (err) {
            if (!isNotFound(err)) throw err;
          }
        }
      }
      const now = cluster.clock.now();
      const current = listObjects(cluster, PODS, namespace, ctx, labelSelectorText(spec.selector)).filter((p) => isControlledBy(p, rs.metadata.uid) && isActive(p));
      const minReady = spec.minReadySeconds ?? 0;
      const templateLabels = ((spec.template ?? {}) as { metadata?: { labels?: Record<string, string> } }).metadata?.labels ?? {};
      const status = {
        replicas: current.length,
        fullyLabeledReplicas: current.filter((p) => Object.entries(templateLabels).every(([k, v]) => p.metadata.labels?.[k] === v)).length,
        readyReplicas: current.filter(isReady).length,
        availableReplicas: current.filter((p) => isAvailable(p, minReady, now)).length,
        observedGeneration: rs.metadata.generation ?? 1,
        conditions: replicaFailureConditions((rs.status as { conditions?: Condition[] } | undefined)?.conditions, failure, timeString(now)),
      };
      writeStatusIfChanged(cluster, REPLICASETS, rs, status, ctx);
      if (failure) return RETRY_FAILED_MS;
      // Pods that are ready but not yet available for minReadySeconds need another look later.
      if (minReady > 0 && status.availableReplicas < status.readyReplicas) return minReady * 1000;
    },
  };
}

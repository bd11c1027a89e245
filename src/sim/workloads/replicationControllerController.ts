import { isNotFound } from '../../shared/apiError.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { objectKey, splitKey } from '../../shared/keys.ts';
import type { RequestContext } from '../store/types.ts';
import { controllerKeyOf, type ControllerDefinition } from './controllerLoop.ts';
import { eventRecorder } from './eventRecorder.ts';
import { claimPods } from './podClaims.ts';
import { controllerRef, isActive, isAvailable, isControlledBy, isReady, podFromTemplate, timeString } from './pods.ts';
import { compareRank, deletionRank } from './replicaSetController.ts';
import { replicaFailureConditions } from './replicaFailure.ts';
import { writeStatusIfChanged, type Condition } from './status.ts';
import { getObject, listObjects, PODS, REPLICATIONCONTROLLERS, type WorkloadCluster } from './workloadCluster.ts';

// The ReplicationController controller (pkg/controller/replication, the ReplicaSet controller
// behind an adapter): claims the Pods its selector (a plain map of labels) matches, adopting
// orphans and releasing Pods relabelled away, keeps spec.replicas of them active, and reports
// counts in status. A Pod it cannot create (a quota refuses it) shows as the ReplicaFailure
// condition until creating works again.

type Labels = Record<string, string>;

interface RcSpec {
  replicas?: number;
  selector?: Labels;
  template?: { metadata?: { labels?: Labels } };
  minReadySeconds?: number;
}

const RETRY_AFTER_FAILURE_MS = 1000;

const selects = (selector: Labels) => (labels: Labels): boolean => Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

export function replicationControllerController(cluster: WorkloadCluster): ControllerDefinition {
  const events = eventRecorder(cluster, { component: 'replication-controller' });

  /** The RCs a Pod concerns: its controller, or for an orphan every RC in its namespace that selects it. */
  const keysForPod = (pod: Readonly<KubeObject>): string[] => {
    const owned = controllerKeyOf(pod, 'ReplicationController');
    if (owned.length > 0 || (pod.metadata.ownerReferences ?? []).some((r) => r.controller)) return owned;
    const namespace = pod.metadata.namespace ?? '';
    return cluster.list(REPLICATIONCONTROLLERS, { namespace }).items
      .filter((s) => selects((s.object.spec as RcSpec | undefined)?.selector ?? {})(pod.metadata.labels ?? {}))
      .map((s) => objectKey(s.object));
  };

  /** Creates or deletes Pods towards spec.replicas; answers the first error (the rest wait for a retry). */
  function manage(rc: KubeObject, spec: RcSpec, active: KubeObject[], ctx: RequestContext): { error?: Error; creating: boolean } {
    const namespace = rc.metadata.namespace ?? '';
    const want = spec.replicas ?? 1;
    if (active.length < want) {
      const owner = controllerRef(rc, 'v1', 'ReplicationController');
      for (let i = active.length; i < want; i++) {
        try {
          const pod = cluster.create(PODS, namespace, podFromTemplate(spec.template, owner, namespace, { generateName: `${rc.metadata.name ?? ''}-` }), ctx).object;
          events.record(rc, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name ?? ''}`, ctx);
        } catch (err) {
          events.record(rc, 'Warning', 'FailedCreate', `Error creating: ${(err as Error).message}`, ctx);
          return { error: err as Error, creating: true };
        }
      }
    } else if (active.length > want) {
      const doomed = [...active].sort((a, b) => compareRank(deletionRank(a), deletionRank(b))).slice(0, active.length - want);
      for (const pod of doomed) {
        try {
          cluster.delete(PODS, namespace, pod.metadata.name ?? '', {}, ctx);
          events.record(rc, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name ?? ''}`, ctx);
        } catch (err) {
          if (isNotFound(err)) continue;
          events.record(rc, 'Warning', 'FailedDelete', `Error deleting: ${(err as Error).message}`, ctx);
          return { error: err as Error, creating: false };
        }
      }
    }
    return { creating: active.length < want };
  }

  return {
    name: 'replication-controller',
    watches: [
      { gvr: REPLICATIONCONTROLLERS, keysFor: (rc) => [objectKey(rc)] },
      { gvr: PODS, keysFor: keysForPod },
    ],
    reconcile(key: string, ctx: RequestContext): number | void {
      const { namespace, name } = splitKey(key);
      const rc = getObject(cluster, REPLICATIONCONTROLLERS, namespace, name, ctx);
      if (!rc) return;
      const spec = (rc.spec ?? {}) as RcSpec;
      const matches = selects(spec.selector ?? {});
      const claimed = claimPods(cluster, rc, controllerRef(rc, 'v1', 'ReplicationController'), listObjects(cluster, PODS, namespace, ctx), matches, ctx);
      // A controller being deleted makes no more Pods; the garbage collector takes the ones it has.
      const managed = rc.metadata.deletionTimestamp ? { creating: false } : manage(rc, spec, claimed.filter(isActive), ctx);

      const now = cluster.clock.now();
      const current = listObjects(cluster, PODS, namespace, ctx).filter((p) => isControlledBy(p, rc.metadata.uid) && matches(p.metadata.labels ?? {}) && isActive(p));
      const templateLabels = spec.template?.metadata?.labels ?? {};
      const minReady = spec.minReadySeconds ?? 0;
      const failure = managed.error ? { reason: managed.creating ? ('FailedCreate' as const) : ('FailedDelete' as const), message: managed.error.message } : undefined;
      const conditions = replicaFailureConditions((rc.status as { conditions?: Condition[] } | undefined)?.conditions, failure, timeString(now));
      const status: Record<string, unknown> = {
        replicas: current.length,
        fullyLabeledReplicas: current.filter((p) => Object.entries(templateLabels).every(([k, v]) => p.metadata.labels?.[k] === v)).length,
        readyReplicas: current.filter(isReady).length,
        availableReplicas: current.filter((p) => isAvailable(p, minReady, now)).length,
        observedGeneration: rc.metadata.generation ?? 1,
        conditions,
      };
      writeStatusIfChanged(cluster, REPLICATIONCONTROLLERS, rc, status, ctx);
      if (managed.error) return RETRY_AFTER_FAILURE_MS;
      if (minReady > 0 && (status['availableReplicas'] as number) < (status['readyReplicas'] as number)) return minReady * 1000;
    },
  };
}

import { objectKey, splitKey } from '../../shared/keys.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import { controllerKeyOf, type ControllerDefinition } from './controllerLoop.ts';
import { controllerRef, isActive, isControlledBy, timeString } from './pods.ts';
import { fenceposts, newReplicaSetSize, oldReplicasToRemove, type ReplicaSetCounts } from './rollingUpdate.ts';
import { eventRecorder } from './eventRecorder.ts';
import { setCondition, writeStatusIfChanged, type Condition } from './status.ts';
import { templateHash } from './templateHash.ts';
import { claimObjects } from './podClaims.ts';
import { getObject, listObjects, mutable, PODS, REPLICASETS, DEPLOYMENTS, type WorkloadCluster } from './workloadCluster.ts';
import { labelSelectorText } from '../../shared/labelSelector.ts';

// The Deployment controller (pkg/controller/deployment): one ReplicaSet per pod template, named
// `<deployment>-<pod-template-hash>`; RollingUpdate grows the new one and shrinks the old ones
// within maxSurge/maxUnavailable, Recreate empties the old ones first; status and the Available
// and Progressing conditions as `kubectl rollout status` and `kubectl wait` read them.

const REVISION = 'deployment.kubernetes.io/revision';
const HASH_LABEL = 'pod-template-hash';

interface DeploymentSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string> };
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown };
  strategy?: { type?: string; rollingUpdate?: { maxSurge?: unknown; maxUnavailable?: unknown } };
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  paused?: boolean;
}

interface ReplicaSetView extends ReplicaSetCounts {
  object: KubeObject;
  ready: number;
  statusReplicas: number;
}

function view(rs: KubeObject): ReplicaSetView {
  const spec = (rs.spec ?? {}) as { replicas?: number };
  const status = (rs.status ?? {}) as { replicas?: number; readyReplicas?: number; availableReplicas?: number };
  return { object: rs, replicas: spec.replicas ?? 0, available: status.availableReplicas ?? 0, ready: status.readyReplicas ?? 0, statusReplicas: status.replicas ?? 0 };
}

function revisionOf(rs: Readonly<KubeObject>): number {
  return Number(rs.metadata.annotations?.[REVISION] ?? 0) || 0;
}

export function deploymentController(cluster: WorkloadCluster): ControllerDefinition {
  const events = eventRecorder(cluster, { component: 'deployment-controller' });
  const scale = (d: KubeObject, rs: ReplicaSetView, replicas: number, ctx: RequestContext, annotations: Record<string, string> = {}): void => {
    if (rs.replicas === replicas && Object.entries(annotations).every(([k, v]) => rs.object.metadata.annotations?.[k] === v)) return;
    const next = mutable(rs.object);
    (next.spec as { replicas: number }).replicas = replicas;
    next.metadata.annotations = { ...(next.metadata.annotations ?? {}), ...annotations };
    rs.object = cluster.update(REPLICASETS, next.metadata.namespace ?? '', next.metadata.name ?? '', next, undefined, ctx).object as KubeObject;
    const from = rs.replicas;
    rs.replicas = replicas;
    if (from !== replicas) events.record(d, 'Normal', 'ScalingReplicaSet', `Scaled ${replicas > from ? 'up' : 'down'} replica set ${next.metadata.name ?? ''} to ${replicas} from ${from}`, ctx);
  };

  return {
    name: 'deployment-controller',
    watches: [
      { gvr: DEPLOYMENTS, keysFor: (d) => [objectKey(d)] },
      { gvr: REPLICASETS, keysFor: (rs) => controllerKeyOf(rs, 'Deployment') },
    ],
    reconcile(key: string, ctx: RequestContext): void {
      const { namespace, name } = splitKey(key);
      const d = getObject(cluster, DEPLOYMENTS, namespace, name, ctx);
      if (!d || d.metadata.deletionTimestamp) return;
      const spec = (d.spec ?? {}) as DeploymentSpec;
      const desired = spec.replicas ?? 1;
      // Its ReplicaSets as its controller claims them: orphans its selector matches are adopted.
      const selected = new Set(listObjects(cluster, REPLICASETS, namespace, ctx, labelSelectorText(spec.selector)).map((rs) => rs.metadata.uid));
      const candidates = listObjects(cluster, REPLICASETS, namespace, ctx).filter((rs) => isControlledBy(rs, d.metadata.uid) || selected.has(rs.metadata.uid));
      const owned = claimObjects(cluster, REPLICASETS, d, controllerRef(d, 'apps/v1', 'Deployment'), candidates, (rs) => selected.has(rs.metadata.uid), ctx).map(view);
      const hash = templateHash(spec.template);
      let newRs = owned.find((rs) => rs.object.metadata.labels?.[HASH_LABEL] === hash);
      const old = owned.filter((rs) => rs !== newRs).sort((a, b) => revisionOf(a.object) - revisionOf(b.object));
      const maxOldRevision = old.reduce((n, rs) => Math.max(n, revisionOf(rs.object)), 0);
      const revision = String(newRs && revisionOf(newRs.object) > maxOldRevision ? revisionOf(newRs.object) : maxOldRevision + 1);
      const { surge, unavailable } = fenceposts(spec.strategy?.rollingUpdate?.maxSurge, spec.strategy?.rollingUpdate?.maxUnavailable, desired);
      const recreate = spec.strategy?.type === 'Recreate';
      const sizeAnnotations = { [REVISION]: revision, 'deployment.kubernetes.io/desired-replicas': String(desired), 'deployment.kubernetes.io/max-replicas': String(desired + (recreate ? 0 : surge)) };
      let created = false;

      if (!spec.paused) {
        if (!newRs) {
          const initial = recreate ? (old.some((rs) => rs.replicas > 0) ? 0 : desired) : newReplicaSetSize(desired, surge, { replicas: 0, available: 0 }, old);
          newRs = view(cluster.create(REPLICASETS, namespace, newReplicaSet(d, spec, hash, initial, sizeAnnotations), ctx).object as KubeObject);
          created = true;
          if (initial > 0) events.record(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${newRs.object.metadata.name ?? ''} to ${initial}`, ctx);
        }
        if (recreate) {
          for (const rs of old) scale(d, rs, 0, ctx);
          const oldPodsLeft = listObjects(cluster, PODS, namespace, ctx, labelSelectorText(spec.selector)).some((p) => isActive(p) && old.some((rs) => isControlledBy(p, rs.object.metadata.uid)));
          if (!oldPodsLeft) scale(d, newRs, desired, ctx, sizeAnnotations);
        } else {
          scale(d, newRs, newRs.replicas > desired ? desired : newReplicaSetSize(desired, surge, newRs, [newRs, ...old]), ctx, sizeAnnotations);
          let { unhealthy, healthy } = oldReplicasToRemove(desired, unavailable, newRs, old);
          for (const rs of old) {
            const down = Math.min(rs.replicas - rs.available, unhealthy);
            if (down > 0) scale(d, rs, rs.replicas - down, ctx);
            unhealthy -= Math.max(0, down);
          }
          for (const rs of old) {
            const down = Math.min(rs.replicas, healthy);
            if (down > 0) scale(d, rs, rs.replicas - down, ctx);
            healthy -= Math.max(0, down);
          }
        }
        pruneHistory(cluster, old, spec.revisionHistoryLimit ?? 10, ctx);
      }

      // The revision goes on through /status, as the real controller writes it: no generation bump.
      const revised = newRs !== undefined && d.metadata.annotations?.[REVISION] !== revision;
      if (revised) d.metadata.annotations = { ...(d.metadata.annotations ?? {}), [REVISION]: revision };
      writeStatusIfChanged(cluster, DEPLOYMENTS, d, deploymentStatus(d, desired, unavailable, newRs, owned.filter((rs) => rs !== newRs), created, cluster.clock.now()), ctx, revised);
    },
  };
}

function newReplicaSet(d: KubeObject, spec: DeploymentSpec, hash: string, replicas: number, annotations: Record<string, string>): KubeObject {
  const template = structuredClone(spec.template ?? {});
  template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [HASH_LABEL]: hash } };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata.name ?? ''}-${hash}`,
      namespace: d.metadata.namespace ?? '',
      labels: { ...(spec.template?.metadata?.labels ?? {}), [HASH_LABEL]: hash },
      annotations,
      ownerReferences: [controllerRef(d, 'apps/v1', 'Deployment')],
    },
    spec: {
      replicas,
      minReadySeconds: spec.minReadySeconds ?? 0,
      selector: { ...(spec.selector ?? {}), matchLabels: { ...(spec.selector?.matchLabels ?? {}), [HASH_LABEL]: hash } },
      template,
    },
  };
}

/** Old ReplicaSets scaled to zero beyond revisionHistoryLimit go, oldest first. */
function pruneHistory(cluster: WorkloadCluster, old: readonly ReplicaSetView[], limit: number, ctx: RequestContext): void {
  const empty = old.filter((rs) => rs.replicas === 0 && rs.statusReplicas === 0);
  for (const rs of empty.slice(0, Math.max(0, empty.length - limit))) {
    cluster.delete(REPLICASETS, rs.object.metadata.namespace ?? '', rs.object.metadata.name ?? '', {}, ctx);
  }
}

function deploymentStatus(d: KubeObject, desired: number, unavailable: number, newRs: ReplicaSetView | undefined, old: readonly ReplicaSetView[], created: boolean, nowMs: number): Record<string, unknown> {
  const all = newRs ? [newRs, ...old] : [...old];
  const replicas = all.reduce((n, rs) => n + rs.statusReplicas, 0);
  const available = all.reduce((n, rs) => n + rs.available, 0);
  const updated = newRs?.statusReplicas ?? 0;
  const now = timeString(nowMs);
  const previous = ((d.status ?? {}) as { conditions?: Condition[] }).conditions;
  let conditions = setCondition(previous, available >= desired - unavailable
    ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }
    : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' }, now, true);
  const rsName = newRs?.object.metadata.name ?? '';
  const complete = updated === desired && available === desired && replicas === desired && old.every((rs) => rs.statusReplicas === 0);
  if (complete) {
    conditions = setCondition(conditions, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rsName}" has successfully progressed.` }, now, true);
  } else if (created) {
    conditions = setCondition(conditions, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set "${rsName}"` }, now, true);
  } else if (newRs) {
    conditions = setCondition(conditions, { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${rsName}" is progressing.` }, now, true);
  }
  // Available first, then Progressing, as the API server's objects list them.
  conditions.sort((a, b) => (a.type === 'Available' ? -1 : b.type === 'Available' ? 1 : 0));
  return {
    observedGeneration: d.metadata.generation ?? 1,
    replicas: replicas || undefined,
    updatedReplicas: updated || undefined,
    readyReplicas: all.reduce((n, rs) => n + rs.ready, 0) || undefined,
    availableReplicas: available || undefined,
    unavailableReplicas: Math.max(0, desired - available) || undefined,
    conditions,
  };
}

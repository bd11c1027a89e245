import { objectKey, splitKey } from '../../shared/keys.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import { controllerKeyOf, type ControllerDefinition } from './controllerLoop.ts';
import { controllerRef, isActive, isAvailable, isControlledBy, isReady, podFromTemplate } from './pods.ts';
import { eventRecorder } from './eventRecorder.ts';
import { writeStatusIfChanged } from './status.ts';
import { templateHash } from './templateHash.ts';
import { getObject, listObjects, PODS, STATEFULSETS, type WorkloadCluster } from './workloadCluster.ts';

// The StatefulSet controller (pkg/controller/statefulset): Pods `<name>-0…<name>-(n-1)` with stable
// names and hostnames. OrderedReady creates one ordinal at a time once the lower ones are Running
// and Ready, and removes from the highest; Parallel does all at once. A RollingUpdate replaces Pods
// of an older revision from the highest ordinal down to the partition, one at a time.

const REVISION_LABEL = 'controller-revision-hash';

interface StatefulSetSpec {
  replicas?: number;
  serviceName?: string;
  podManagementPolicy?: string;
  updateStrategy?: { type?: string; rollingUpdate?: { partition?: number } };
  minReadySeconds?: number;
  template?: unknown;
}

function ordinalOf(setName: string, pod: Readonly<KubeObject>): number {
  const name = pod.metadata.name ?? '';
  const suffix = name.slice(setName.length + 1);
  return name.startsWith(`${setName}-`) && /^\d+$/.test(suffix) ? Number(suffix) : -1;
}

export function statefulSetController(cluster: WorkloadCluster): ControllerDefinition {
  const events = eventRecorder(cluster, { component: 'statefulset-controller' });
  const removePod = (sts: KubeObject, podName: string, ctx: RequestContext): void => {
    cluster.delete(PODS, sts.metadata.namespace ?? '', podName, {}, ctx);
    events.record(sts, 'Normal', 'SuccessfulDelete', `delete Pod ${podName} in StatefulSet ${sts.metadata.name ?? ''} successful`, ctx);
  };
  return {
    name: 'statefulset-controller',
    watches: [
      { gvr: STATEFULSETS, keysFor: (sts) => [objectKey(sts)] },
      { gvr: PODS, keysFor: (pod) => controllerKeyOf(pod, 'StatefulSet') },
    ],
    reconcile(key: string, ctx: RequestContext): number | void {
      const { namespace, name } = splitKey(key);
      const sts = getObject(cluster, STATEFULSETS, namespace, name, ctx);
      if (!sts || sts.metadata.deletionTimestamp) return;
      const spec = (sts.spec ?? {}) as StatefulSetSpec;
      const replicas = spec.replicas ?? 1;
      const revision = `${name}-${templateHash(spec.template)}`;
      const parallel = spec.podManagementPolicy === 'Parallel';
      const pods = new Map<number, KubeObject>();
      for (const pod of listObjects(cluster, PODS, namespace, ctx)) {
        if (isControlledBy(pod, sts.metadata.uid) && ordinalOf(name, pod) >= 0) pods.set(ordinalOf(name, pod), pod);
      }
      const owner = controllerRef(sts, 'apps/v1', 'StatefulSet');
      const healthy = (pod: KubeObject | undefined): boolean => pod !== undefined && isActive(pod) && isReady(pod);

      // Create missing ordinals (OrderedReady: only while every lower one is healthy).
      for (let i = 0; i < replicas; i++) {
        if (pods.has(i)) {
          if (!parallel && !healthy(pods.get(i))) break;
          continue;
        }
        const podName = `${name}-${i}`;
        const pod = podFromTemplate(spec.template, owner, namespace, { name: podName }, {
          [REVISION_LABEL]: revision,
          'statefulset.kubernetes.io/pod-name': podName,
          'apps.kubernetes.io/pod-index': String(i),
        });
        const podSpec = pod.spec as { hostname?: string; subdomain?: string };
        podSpec.hostname = podName;
        if (spec.serviceName) podSpec.subdomain = spec.serviceName;
        pods.set(i, cluster.create(PODS, namespace, pod, ctx).object as KubeObject);
        events.record(sts, 'Normal', 'SuccessfulCreate', `create Pod ${podName} in StatefulSet ${name} successful`, ctx);
        if (!parallel) break;
      }

      // Remove ordinals past replicas, highest first (OrderedReady: one at a time, when all are healthy).
      const surplus = [...pods.keys()].filter((i) => i >= replicas).sort((a, b) => b - a);
      const allHealthy = [...pods.values()].every(healthy);
      for (const i of parallel ? surplus : surplus.slice(0, allHealthy ? 1 : 0)) {
        removePod(sts, `${name}-${i}`, ctx);
        pods.delete(i);
      }

      // Rolling update: the highest Pod of an old revision above the partition goes, once all are healthy.
      const partition = spec.updateStrategy?.rollingUpdate?.partition ?? 0;
      if ((spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && surplus.length === 0 && allHealthy) {
        const stale = [...pods.entries()].filter(([i, p]) => i >= partition && i < replicas && p.metadata.labels?.[REVISION_LABEL] !== revision).sort(([a], [b]) => b - a)[0];
        if (stale) {
          removePod(sts, stale[1].metadata.name ?? '', ctx);
          pods.delete(stale[0]);
        }
      }

      const present = [...pods.values()].filter(isActive);
      const updated = present.filter((p) => p.metadata.labels?.[REVISION_LABEL] === revision).length;
      const status = (sts.status ?? {}) as { currentRevision?: string };
      const ready = present.filter(isReady).length;
      const done = updated === replicas && ready === replicas && present.length === replicas;
      const currentRevision = done || !status.currentRevision ? revision : status.currentRevision;
      writeStatusIfChanged(cluster, STATEFULSETS, sts, {
        observedGeneration: sts.metadata.generation ?? 1,
        replicas: present.length,
        readyReplicas: ready || undefined,
        currentReplicas: present.filter((p) => p.metadata.labels?.[REVISION_LABEL] === currentRevision).length || undefined,
        updatedReplicas: updated || undefined,
        availableReplicas: present.filter((p) => isAvailable(p, spec.minReadySeconds ?? 0, cluster.clock.now())).length,
        currentRevision,
        updateRevision: revision,
        collisionCount: 0,
      }, ctx);
    },
  };
}

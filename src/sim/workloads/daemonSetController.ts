import { objectKey, splitKey } from '../../shared/keys.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import { controllerKeyOf, type ControllerDefinition } from './controllerLoop.ts';
import { schedulable } from './fakeNodes.ts';
import { controllerRef, isActive, isAvailable, isControlledBy, isReady, podFromTemplate } from './pods.ts';
import { resolveIntOrPercent } from './rollingUpdate.ts';
import { eventRecorder } from './eventRecorder.ts';
import { writeStatusIfChanged } from './status.ts';
import { templateHash } from './templateHash.ts';
import { DAEMONSETS, getObject, listObjects, NODES, PODS, type WorkloadCluster } from './workloadCluster.ts';

// The DaemonSet controller (pkg/controller/daemon): one Pod per schedulable Node whose labels match
// the template's nodeSelector, bound to it directly; a RollingUpdate replaces Pods of an older
// template up to maxUnavailable at a time.

const REVISION_LABEL = 'controller-revision-hash';

interface DaemonSetSpec {
  template?: { spec?: { nodeSelector?: Record<string, string> } };
  updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: unknown } };
  minReadySeconds?: number;
}

export function daemonSetController(cluster: WorkloadCluster): ControllerDefinition {
  const allKeys = (): string[] => listObjects(cluster, DAEMONSETS, '', {}).map((ds) => objectKey(ds));
  const events = eventRecorder(cluster, { component: 'daemonset-controller' });
  const removePod = (ds: KubeObject, pod: KubeObject, ctx: RequestContext): void => {
    cluster.delete(PODS, ds.metadata.namespace ?? '', pod.metadata.name ?? '', {}, ctx);
    events.record(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name ?? ''}`, ctx);
  };
  return {
    name: 'daemon-set-controller',
    watches: [
      { gvr: DAEMONSETS, keysFor: (ds) => [objectKey(ds)] },
      { gvr: PODS, keysFor: (pod) => controllerKeyOf(pod, 'DaemonSet') },
      // A Node that comes, goes or changes may want a daemon Pod of every DaemonSet.
      { gvr: NODES, keysFor: () => allKeys() },
    ],
    reconcile(key: string, ctx: RequestContext): void {
      const { namespace, name } = splitKey(key);
      const ds = getObject(cluster, DAEMONSETS, namespace, name, ctx);
      if (!ds || ds.metadata.deletionTimestamp) return;
      const spec = (ds.spec ?? {}) as DaemonSetSpec;
      const revision = templateHash(spec.template);
      const selector = spec.template?.spec?.nodeSelector ?? {};
      const nodes = listObjects(cluster, NODES, '', ctx).filter((n) => schedulable(n) && Object.entries(selector).every(([k, v]) => n.metadata.labels?.[k] === v));
      const wanted = new Set(nodes.map((n) => n.metadata.name ?? ''));
      const byNode = new Map<string, KubeObject>();
      const misplaced: KubeObject[] = [];
      for (const pod of listObjects(cluster, PODS, namespace, ctx)) {
        if (!isControlledBy(pod, ds.metadata.uid) || !isActive(pod)) continue;
        const node = (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? '';
        if (wanted.has(node) && !byNode.has(node)) byNode.set(node, pod);
        else misplaced.push(pod);
      }
      for (const pod of misplaced) removePod(ds, pod, ctx);

      const owner = controllerRef(ds, 'apps/v1', 'DaemonSet');
      for (const node of wanted) {
        if (byNode.has(node)) continue;
        const pod = podFromTemplate(spec.template, owner, namespace, { generateName: `${name}-` }, { [REVISION_LABEL]: revision, 'pod-template-generation': String(ds.metadata.generation ?? 1) });
        (pod.spec as { nodeName?: string }).nodeName = node;
        const created = cluster.create(PODS, namespace, pod, ctx).object as KubeObject;
        byNode.set(node, created);
        events.record(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name ?? ''}`, ctx);
      }

      if ((spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
        const maxUnavailable = Math.max(1, resolveIntOrPercent(spec.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1, wanted.size, true));
        const unavailable = [...byNode.values()].filter((p) => !isReady(p)).length;
        const stale = [...byNode.entries()].filter(([, p]) => p.metadata.labels?.[REVISION_LABEL] !== revision);
        for (const [node, pod] of stale.slice(0, Math.max(0, maxUnavailable - unavailable))) {
          removePod(ds, pod, ctx);
          byNode.delete(node);
        }
      }

      const pods = [...byNode.values()];
      const now = cluster.clock.now();
      const available = pods.filter((p) => isAvailable(p, spec.minReadySeconds ?? 0, now)).length;
      writeStatusIfChanged(cluster, DAEMONSETS, ds, {
        observedGeneration: ds.metadata.generation ?? 1,
        desiredNumberScheduled: wanted.size,
        currentNumberScheduled: pods.length,
        numberMisscheduled: 0,
        numberReady: pods.filter(isReady).length,
        numberAvailable: available || undefined,
        numberUnavailable: Math.max(0, wanted.size - available) || undefined,
        updatedNumberScheduled: pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === revision).length || undefined,
      }, ctx);
    },
  };
}

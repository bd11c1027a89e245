import { objectKey, splitKey } from '../../shared/keys.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import type { ControllerDefinition } from './controllerLoop.ts';
import { PODS_PER_NODE, schedulable } from './fakeNodes.ts';
import { isActive, timeString } from './pods.ts';
import { eventRecorder } from './eventRecorder.ts';
import { setCondition, writeStatusIfChanged, type Condition } from './status.ts';
import { getObject, listObjects, NODES, PODS, type WorkloadCluster } from './workloadCluster.ts';

// A scheduler for the default scheduler name: each pending Pod goes to the schedulable Node with
// the fewest Pods whose labels match its nodeSelector, within 110 Pods a Node. No resources,
// affinities or taints are weighed. A Pod with nowhere to go gets PodScheduled=False and is tried
// again every second, as the real scheduler's unschedulable queue does.

const RETRY_UNSCHEDULABLE_MS = 1000;

export function scheduler(cluster: WorkloadCluster): ControllerDefinition {
  /** Pod key → node name, for the Pods already bound (kept from the Pod watch). */
  const bound = new Map<string, string>();
  const load = new Map<string, number>();
  const unbind = (key: string): void => {
    const node = bound.get(key);
    if (node === undefined) return;
    bound.delete(key);
    load.set(node, (load.get(node) ?? 1) - 1);
  };
  const bind = (key: string, node: string): void => {
    if (bound.get(key) === node) return;
    unbind(key);
    bound.set(key, node);
    load.set(node, (load.get(node) ?? 0) + 1);
  };
  const podsOn = (node: string): number => load.get(node) ?? 0;
  const events = eventRecorder(cluster, { component: 'default-scheduler' });

  return {
    name: 'default-scheduler',
    retriesOnly: true,
    watches: [
      {
        gvr: PODS,
        keysFor: (pod, type) => {
          const key = objectKey(pod);
          const spec = (pod.spec ?? {}) as { nodeName?: string; schedulerName?: string };
          if (type === 'DELETED' || !isActive(pod)) {
            unbind(key);
            return [];
          }
          if (spec.nodeName) {
            bind(key, spec.nodeName);
            return [];
          }
          return (spec.schedulerName ?? 'default-scheduler') === 'default-scheduler' ? [key] : [];
        },
      },
    ],
    reconcile(key: string, ctx: RequestContext): number | void {
      const { namespace, name } = splitKey(key);
      const pod = getObject(cluster, PODS, namespace, name, ctx);
      if (!pod || !isActive(pod) || (pod.spec as { nodeName?: string } | undefined)?.nodeName) return;
      const node = pickNode(listObjects(cluster, NODES, '', ctx), pod, podsOn);
      const now = timeString(cluster.clock.now());
      const conditions = ((pod.status ?? {}) as { conditions?: Condition[] }).conditions;
      if (!node) {
        const message = `0/${listObjects(cluster, NODES, '', ctx).length} nodes are available: no node is schedulable with room for the pod.`;
        writeStatusIfChanged(cluster, PODS, pod, { phase: 'Pending', conditions: setCondition(conditions, { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }, now) }, ctx);
        events.record(pod, 'Warning', 'FailedScheduling', message, ctx);
        return RETRY_UNSCHEDULABLE_MS;
      }
      (pod.spec as { nodeName?: string }).nodeName = node;
      const written = cluster.update(PODS, namespace, name, pod, undefined, ctx).object as KubeObject;
      bind(key, node);
      events.record(written, 'Normal', 'Scheduled', `Successfully assigned ${namespace}/${name} to ${node}`, ctx);
      const scheduled: Condition = { type: 'PodScheduled', status: 'True', reason: '', message: '' };
      writeStatusIfChanged(cluster, PODS, structuredClone(written) as KubeObject, { phase: 'Pending', conditions: setCondition(conditions, scheduled, now).map(stripEmpty) }, ctx);
    },
  };
}

function pickNode(nodes: readonly KubeObject[], pod: Readonly<KubeObject>, podsOn: (node: string) => number): string | undefined {
  const selector = ((pod.spec ?? {}) as { nodeSelector?: Record<string, string> }).nodeSelector ?? {};
  let best: { name: string; load: number } | undefined;
  for (const node of nodes) {
    if (!schedulable(node)) continue;
    if (!Object.entries(selector).every(([k, v]) => node.metadata.labels?.[k] === v)) continue;
    const name = node.metadata.name ?? '';
    const load = podsOn(name);
    if (load >= PODS_PER_NODE) continue;
    if (!best || load < best.load || (load === best.load && name < best.name)) best = { name, load };
  }
  return best?.name;
}

/** The API server omits empty reason/message on conditions. */
function stripEmpty(c: Condition): Condition {
  const out: Partial<Condition> = { ...c };
  if (!out.reason) delete out.reason;
  if (!out.message) delete out.message;
  return out as Condition;
}

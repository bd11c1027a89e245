import { isNotFound } from '../../shared/apiError.ts';
import { objectKey, splitKey } from '../../shared/keys.ts';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import type { ControllerDefinition } from './controllerLoop.ts';
import { eventRecorder } from './eventRecorder.ts';
import { timeString } from './pods.ts';
import { setCondition, writeStatusIfChanged, type Condition } from './status.ts';
import { DEPLOYMENTS, getObject, REPLICASETS, STATEFULSETS, type WorkloadCluster } from './workloadCluster.ts';

// The HorizontalPodAutoscaler controller (pkg/controller/podautoscaler) on a cluster without a
// metrics server, which is what the simulated cluster is: every 15 s it reads the target's scale,
// keeps the replicas within minReplicas and maxReplicas (that needs no metrics), and otherwise
// reports, as a real controller does there, that it cannot get the metrics it scales on.

export const HPAS: GroupVersionResource = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
const SYNC_PERIOD_MS = 15_000;
const TARGETS: Record<string, GroupVersionResource> = { 'apps/Deployment': DEPLOYMENTS, 'apps/ReplicaSet': REPLICASETS, 'apps/StatefulSet': STATEFULSETS };
const NO_METRICS_API = 'unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)';

interface MetricSpec {
  type?: string;
  resource?: { name?: string; target?: { type?: string } };
  containerResource?: { name?: string };
  pods?: { metric?: { name?: string } };
  object?: { metric?: { name?: string } };
  external?: { metric?: { name?: string } };
}

interface HpaSpec {
  scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
  minReplicas?: number;
  maxReplicas?: number;
  metrics?: MetricSpec[];
}

/** Why the first metric cannot be read, in the controller's words. */
function metricFailure(metric: MetricSpec | undefined): { reason: string; message: string } {
  const resource = metric?.resource?.name ?? metric?.containerResource?.name;
  if (resource) {
    const what = metric?.resource?.target?.type === 'Utilization' || !metric?.resource ? `${resource} utilization` : `${resource} usage`;
    return { reason: 'FailedGetResourceMetric', message: `failed to get ${what}: unable to get metrics for resource ${resource}: ${NO_METRICS_API}` };
  }
  const name = metric?.pods?.metric?.name ?? metric?.object?.metric?.name ?? metric?.external?.metric?.name ?? '';
  const kind = metric?.type ?? 'Pods';
  return { reason: `FailedGet${kind}Metric`, message: `unable to get metric ${name}: no metrics API is served (custom.metrics.k8s.io, external.metrics.k8s.io)` };
}

export function hpaController(cluster: WorkloadCluster): ControllerDefinition {
  const events = eventRecorder(cluster, { component: 'horizontal-pod-autoscaler' });
  // Its queue lets a key through once per sync period (the HPA rate limiter), so its own status
  // writes do not make it look again at once; a changed spec (generation) does.
  const lastSync = new Map<string, { at: number; generation: number | undefined }>();
  return {
    name: 'horizontal-pod-autoscaler',
    watches: [{ gvr: HPAS, keysFor: (hpa) => [objectKey(hpa)] }],
    reconcile(key: string, ctx: RequestContext): number | void {
      const { namespace, name } = splitKey(key);
      const hpa = getObject(cluster, HPAS, namespace, name, ctx);
      if (!hpa || hpa.metadata.deletionTimestamp) {
        lastSync.delete(key);
        return;
      }
      const previous = lastSync.get(key);
      const since = previous ? cluster.clock.now() - previous.at : Infinity;
      if (since < SYNC_PERIOD_MS && previous?.generation === hpa.metadata.generation) return SYNC_PERIOD_MS - since;
      lastSync.set(key, { at: cluster.clock.now(), generation: hpa.metadata.generation });
      const spec = (hpa.spec ?? {}) as HpaSpec;
      const status = (hpa.status ?? {}) as { conditions?: Condition[]; lastScaleTime?: string; currentReplicas?: number };
      const now = timeString(cluster.clock.now());
      let conditions = status.conditions;
      const ref = spec.scaleTargetRef ?? {};
      const group = (ref.apiVersion ?? '').includes('/') ? ref.apiVersion!.split('/')[0]! : '';
      const target = TARGETS[`${group}/${ref.kind ?? ''}`];

      let scale: KubeObject | undefined;
      let scaleProblem: string | undefined;
      if (!target) scaleProblem = `no matches for kind "${ref.kind ?? ''}" in group "${group}"`;
      else {
        try {
          scale = cluster.get(target, namespace, ref.name ?? '', 'scale', ctx).object as KubeObject;
        } catch (err) {
          if (!isNotFound(err)) throw err;
          scaleProblem = `${target.resource}/scale.${target.group} "${ref.name ?? ''}" not found`;
        }
      }
      if (!scale) {
        const message = `the HPA controller was unable to get the target's current scale: ${scaleProblem ?? ''}`;
        events.record(hpa, 'Warning', 'FailedGetScale', scaleProblem ?? '', ctx);
        conditions = setCondition(conditions, { type: 'AbleToScale', status: 'False', reason: 'FailedGetScale', message }, now);
        writeStatusIfChanged(cluster, HPAS, hpa, { conditions, observedGeneration: hpa.metadata.generation }, ctx);
        return SYNC_PERIOD_MS;
      }

      const current = (scale.spec as { replicas?: number } | undefined)?.replicas ?? 0;
      const min = spec.minReplicas ?? 1;
      const max = spec.maxReplicas ?? min;
      conditions = setCondition(conditions, { type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale', message: "the HPA controller was able to get the target's current scale" }, now);
      let desired: number;
      let rescaleReason: string | undefined;
      if (current === 0 && min !== 0) {
        conditions = setCondition(conditions, { type: 'ScalingActive', status: 'False', reason: 'ScalingDisabled', message: 'scaling is disabled since the replica count of the target is zero' }, now);
        desired = 0;
      } else if (current > max) {
        [desired, rescaleReason] = [max, 'Current number of replicas above Spec.MaxReplicas'];
      } else if (current < min) {
        [desired, rescaleReason] = [min, 'Current number of replicas below Spec.MinReplicas'];
      } else {
        // No metrics server: the metrics cannot be read, so the controller keeps the size it has and
        // says why; the desired count stays what it was.
        const failure = metricFailure(spec.metrics?.[0]);
        const count = spec.metrics?.length ?? 1;
        events.record(hpa, 'Warning', failure.reason, failure.message, ctx);
        events.record(hpa, 'Warning', 'FailedComputeMetricsReplicas', `invalid metrics (${count} invalid out of ${count}), first error is: failed to get ${spec.metrics?.[0]?.resource?.name ?? 'cpu'} resource metric value: ${failure.message}`, ctx);
        conditions = setCondition(conditions, { type: 'ScalingActive', status: 'False', reason: failure.reason, message: `the HPA was unable to compute the replica count: ${failure.message}` }, now);
        writeStatusIfChanged(cluster, HPAS, hpa, { currentReplicas: current, currentMetrics: (spec.metrics ?? [{}]).map(() => ({ type: '' })), conditions }, ctx);
        return SYNC_PERIOD_MS;
      }

      let lastScaleTime = status.lastScaleTime;
      if (rescaleReason) {
        cluster.update(target!, namespace, ref.name ?? '', { ...scale, spec: { replicas: desired } }, 'scale', ctx);
        lastScaleTime = now;
        events.record(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${rescaleReason}`, ctx);
        conditions = setCondition(conditions, { type: 'AbleToScale', status: 'True', reason: 'SucceededRescale', message: `the HPA controller was able to update the target scale to ${desired}` }, now);
      }
      writeStatusIfChanged(cluster, HPAS, hpa, { observedGeneration: hpa.metadata.generation, lastScaleTime, currentReplicas: current, desiredReplicas: desired, currentMetrics: null, conditions }, ctx);
      return SYNC_PERIOD_MS;
    },
  };
}

import { isNotFound } from '../../shared/apiError.ts';
import { objectKey, splitKey } from '../../shared/keys.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import type { ControllerDefinition } from './controllerLoop.ts';
import type { Condition } from './status.ts';
import { getObject, JOBS, type WorkloadCluster } from './workloadCluster.ts';

// The TTL-after-finished controller (pkg/controller/ttlafterfinished): a finished Job with
// spec.ttlSecondsAfterFinished is deleted, with its Pods, that long after it finished.

/** When the Job finished (Complete or Failed), in epoch ms, or undefined while it runs. */
function finishedAt(job: Readonly<KubeObject>): number | undefined {
  const status = (job.status ?? {}) as { conditions?: Condition[]; completionTime?: string };
  const finished = (status.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  if (!finished) return undefined;
  const at = Date.parse(status.completionTime ?? finished.lastTransitionTime ?? '');
  return Number.isFinite(at) ? at : undefined;
}

export function ttlAfterFinishedController(cluster: WorkloadCluster): ControllerDefinition {
  return {
    name: 'ttl-after-finished-controller',
    watches: [{ gvr: JOBS, keysFor: (job) => [objectKey(job)] }],
    reconcile(key: string, ctx: RequestContext): number | void {
      const { namespace, name } = splitKey(key);
      const job = getObject(cluster, JOBS, namespace, name, ctx);
      if (!job || job.metadata.deletionTimestamp) return;
      const ttl = (job.spec as { ttlSecondsAfterFinished?: number } | undefined)?.ttlSecondsAfterFinished;
      const finished = finishedAt(job);
      if (ttl === undefined || finished === undefined) return;
      const left = finished + ttl * 1000 - cluster.clock.now();
      if (left > 0) return left;
      try {
        cluster.delete(JOBS, namespace, name, { propagationPolicy: 'Foreground', preconditions: { uid: job.metadata.uid ?? '' } }, ctx);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}

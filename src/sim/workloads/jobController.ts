import { objectKey, splitKey } from '../../shared/keys.ts';
import { isNotFound } from '../../shared/apiError.ts';
import type { RequestContext } from '../store/types.ts';
import { controllerKeyOf, type ControllerDefinition } from './controllerLoop.ts';
import { controllerRef, isActive, isControlledBy, isReady, phaseOf, podFromTemplate, timeString } from './pods.ts';
import { eventRecorder, type EventType } from './eventRecorder.ts';
import { setCondition, writeStatusIfChanged, type Condition } from './status.ts';
import { getObject, JOBS, listObjects, PODS, type WorkloadCluster } from './workloadCluster.ts';

// The Job controller (pkg/controller/job), NonIndexed: up to `parallelism` Pods at a time until
// `completions` have Succeeded (Complete), or more than `backoffLimit` have Failed (Failed,
// BackoffLimitExceeded), or it has run `activeDeadlineSeconds` since its start (Failed,
// DeadlineExceeded). A suspended Job keeps no Pods.

interface JobSpec {
  parallelism?: number;
  completions?: number | null;
  backoffLimit?: number;
  activeDeadlineSeconds?: number;
  suspend?: boolean;
  template?: unknown;
}

export function jobController(cluster: WorkloadCluster): ControllerDefinition {
  const events = eventRecorder(cluster, { component: 'job-controller' });
  return {
    name: 'job-controller',
    watches: [
      { gvr: JOBS, keysFor: (job) => [objectKey(job)] },
      { gvr: PODS, keysFor: (pod) => controllerKeyOf(pod, 'Job') },
    ],
    reconcile(key: string, ctx: RequestContext): number | void {
      const { namespace, name } = splitKey(key);
      const job = getObject(cluster, JOBS, namespace, name, ctx);
      if (!job || job.metadata.deletionTimestamp) return;
      const status = (job.status ?? {}) as { conditions?: Condition[]; startTime?: string; completionTime?: string };
      if (status.conditions?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')) return;
      const spec = (job.spec ?? {}) as JobSpec;
      const pods = listObjects(cluster, PODS, namespace, ctx).filter((p) => isControlledBy(p, job.metadata.uid));
      const active = pods.filter(isActive);
      const succeeded = pods.filter((p) => phaseOf(p) === 'Succeeded').length;
      const failed = pods.filter((p) => phaseOf(p) === 'Failed').length;
      const now = timeString(cluster.clock.now());
      const startTime = status.startTime ?? now;
      // ms left before the deadline (the controller looks again then), or undefined without one.
      const deadlineIn = spec.activeDeadlineSeconds !== undefined && !spec.suspend
        ? Date.parse(startTime) + spec.activeDeadlineSeconds * 1000 - cluster.clock.now()
        : undefined;
      const parallelism = spec.parallelism ?? 1;
      const completions = spec.completions ?? null;
      let conditions = status.conditions;
      let completionTime: string | undefined;
      let remove = 0;
      let add = 0;
      let outcome: [type: EventType, reason: string, message: string] | undefined;

      if (failed > (spec.backoffLimit ?? 6)) {
        conditions = setCondition(conditions, { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }, now);
        remove = active.length;
        outcome = ['Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'];
      } else if (deadlineIn !== undefined && deadlineIn <= 0) {
        const message = 'Job was active longer than specified deadline';
        conditions = setCondition(conditions, { type: 'Failed', status: 'True', reason: 'DeadlineExceeded', message }, now);
        remove = active.length;
        outcome = ['Warning', 'DeadlineExceeded', message];
      } else if (completions !== null ? succeeded >= completions : succeeded > 0 && active.length === 0) {
        conditions = setCondition(conditions, { type: 'Complete', status: 'True', reason: '', message: '' }, now);
        completionTime = now;
        remove = active.length;
        outcome = ['Normal', 'Completed', 'Job completed'];
      } else if (spec.suspend) {
        if (!conditions?.some((c) => c.type === 'Suspended' && c.status === 'True')) outcome = ['Normal', 'Suspended', 'Job suspended'];
        conditions = setCondition(conditions, { type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' }, now);
        remove = active.length;
      } else {
        // A work-queue Job (no completions) stops starting Pods once one has succeeded.
        const wanted = completions !== null ? Math.min(parallelism, completions - succeeded) : succeeded > 0 ? 0 : parallelism;
        if (active.length < wanted) add = wanted - active.length;
        else remove = active.length - wanted;
      }

      const owner = controllerRef(job, 'batch/v1', 'Job');
      const labels = { 'batch.kubernetes.io/controller-uid': job.metadata.uid ?? '', 'batch.kubernetes.io/job-name': name, 'controller-uid': job.metadata.uid ?? '', 'job-name': name };
      for (let i = 0; i < add; i++) {
        const pod = cluster.create(PODS, namespace, podFromTemplate(spec.template, owner, namespace, { generateName: `${name}-` }, labels), ctx).object;
        events.record(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name ?? ''}`, ctx);
      }
      for (const pod of active.slice(0, remove)) {
        try {
          cluster.delete(PODS, namespace, pod.metadata.name ?? '', {}, ctx);
          events.record(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name ?? ''}`, ctx);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
      const stillActive = active.length + add - remove;
      writeStatusIfChanged(cluster, JOBS, job, {
        startTime,
        completionTime: completionTime ?? status.completionTime,
        active: stillActive || undefined,
        succeeded: succeeded || undefined,
        failed: failed || undefined,
        ready: active.slice(remove).filter(isReady).length,
        uncountedTerminatedPods: {},
        conditions: conditions?.map((c) => {
          const out: Partial<Condition> = { ...c, lastProbeTime: c.lastTransitionTime } as Partial<Condition>;
          if (!out.reason) delete out.reason;
          if (!out.message) delete out.message;
          return out;
        }),
      }, ctx);
      if (outcome) events.record(job, ...outcome, ctx);
      const finished = conditions?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
      if (!finished && deadlineIn !== undefined) return Math.max(deadlineIn, 0);
    },
  };
}

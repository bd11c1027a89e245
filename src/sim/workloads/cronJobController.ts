import { isConflict, isNotFound } from '../../shared/apiError.ts';
import { objectKey, splitKey } from '../../shared/keys.ts';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type { RequestContext } from '../store/types.ts';
import { controllerKeyOf, type ControllerDefinition } from './controllerLoop.ts';
import { parseCronSchedule, type CronSchedule } from './cronSchedule.ts';
import { eventRecorder } from './eventRecorder.ts';
import { controllerRef, isControlledBy, timeString } from './pods.ts';
import type { Condition } from './status.ts';
import { writeStatusIfChanged } from './status.ts';
import { getObject, JOBS, listObjects, type WorkloadCluster } from './workloadCluster.ts';

// The CronJob controller (pkg/controller/cronjob): at each scheduled time (in spec.timeZone) a Job
// named `<cronjob>-<minutes since the epoch>` from the job template, as the concurrency policy
// allows (Forbid skips while one runs, Replace deletes the running ones); missed times within
// startingDeadlineSeconds start one Job for the latest; finished Jobs leave `status.active`, the
// last success is recorded, and the oldest finished Jobs beyond the history limits are deleted.

export const CRONJOBS: GroupVersionResource = { group: 'batch', version: 'v1', resource: 'cronjobs' };
/** More missed start times than this is a clock problem or a too-long deadline, not a backlog. */
const MAX_MISSED = 100;
/** The controller looks again a little after a scheduled time, so the time has surely come. */
const AFTER_SCHEDULE_MS = 100;

interface CronJobSpec {
  schedule?: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';
  suspend?: boolean;
  jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown };
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
}

interface JobReference {
  kind: 'Job';
  namespace: string;
  name: string;
  uid: string;
  apiVersion: 'batch/v1';
  resourceVersion: string;
}

function finishedAs(job: Readonly<KubeObject>): 'Complete' | 'Failed' | undefined {
  const conditions = ((job.status ?? {}) as { conditions?: Condition[] }).conditions ?? [];
  return conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')?.type as 'Complete' | 'Failed' | undefined;
}

function reference(job: Readonly<KubeObject>): JobReference {
  return { kind: 'Job', namespace: job.metadata.namespace ?? '', name: job.metadata.name ?? '', uid: job.metadata.uid ?? '', apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion ?? '' };
}

const startOf = (job: Readonly<KubeObject>): number => Date.parse(((job.status ?? {}) as { startTime?: string }).startTime ?? job.metadata.creationTimestamp ?? '') || 0;

export function cronJobController(cluster: WorkloadCluster): ControllerDefinition {
  const events = eventRecorder(cluster, { component: 'cronjob-controller' });

  /** Deletes the oldest finished Jobs of one outcome beyond the limit. */
  const trimHistory = (cronJob: Readonly<KubeObject>, finished: KubeObject[], limit: number, ctx: RequestContext): void => {
    const oldestFirst = [...finished].sort((a, b) => startOf(a) - startOf(b));
    for (const job of oldestFirst.slice(0, Math.max(0, oldestFirst.length - limit))) deleteJob(cronJob, job, ctx);
  };

  const deleteJob = (cronJob: Readonly<KubeObject>, job: Readonly<KubeObject>, ctx: RequestContext): void => {
    try {
      cluster.delete(JOBS, job.metadata.namespace ?? '', job.metadata.name ?? '', { propagationPolicy: 'Background' }, ctx);
      events.record(cronJob, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name ?? ''}`, ctx);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  };

  return {
    name: 'cronjob-controller',
    watches: [
      { gvr: CRONJOBS, keysFor: (cronJob) => [objectKey(cronJob)] },
      { gvr: JOBS, keysFor: (job) => controllerKeyOf(job, 'CronJob') },
    ],
    reconcile(key: string, ctx: RequestContext): number | void {
      const { namespace, name } = splitKey(key);
      const cronJob = getObject(cluster, CRONJOBS, namespace, name, ctx);
      if (!cronJob || cronJob.metadata.deletionTimestamp) return;
      const spec = (cronJob.spec ?? {}) as CronJobSpec;
      const status = (cronJob.status ?? {}) as { active?: JobReference[]; lastScheduleTime?: string; lastSuccessfulTime?: string };
      const jobs = listObjects(cluster, JOBS, namespace, ctx).filter((j) => isControlledBy(j, cronJob.metadata.uid));

      // Jobs that finished leave `active`; the controller says it saw each once.
      const wasActive = new Set((status.active ?? []).map((r) => r.uid));
      let lastSuccessfulTime = status.lastSuccessfulTime;
      for (const job of jobs) {
        const outcome = finishedAs(job);
        if (!outcome || !wasActive.has(job.metadata.uid ?? '')) continue;
        events.record(cronJob, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name ?? ''}, status: ${outcome}`, ctx);
        const completed = ((job.status ?? {}) as { completionTime?: string }).completionTime;
        if (outcome === 'Complete' && completed && (!lastSuccessfulTime || Date.parse(completed) > Date.parse(lastSuccessfulTime))) lastSuccessfulTime = completed;
      }
      // An active Job deleted by someone else leaves `active` too, with the controller's word for it.
      const present = new Set(jobs.map((j) => j.metadata.uid));
      for (const ref of status.active ?? []) {
        if (!present.has(ref.uid)) events.record(cronJob, 'Normal', 'MissingJob', `Active job went missing: ${ref.name ?? ''}`, ctx);
      }
      let active = jobs.filter((j) => !finishedAs(j) && !j.metadata.deletionTimestamp);
      const kept = jobs.filter((j) => !j.metadata.deletionTimestamp);
      trimHistory(cronJob, kept.filter((j) => finishedAs(j) === 'Complete'), spec.successfulJobsHistoryLimit ?? 3, ctx);
      trimHistory(cronJob, kept.filter((j) => finishedAs(j) === 'Failed'), spec.failedJobsHistoryLimit ?? 1, ctx);

      let lastScheduleTime = status.lastScheduleTime;
      const writeStatus = (): void => {
        writeStatusIfChanged(cluster, CRONJOBS, cronJob, { active: active.length > 0 ? active.map(reference) : undefined, lastScheduleTime, lastSuccessfulTime }, ctx);
      };
      if (spec.suspend) {
        writeStatus();
        return;
      }

      let schedule: CronSchedule;
      try {
        schedule = parseCronSchedule(spec.schedule ?? '', spec.timeZone);
      } catch (err) {
        events.record(cronJob, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(spec.schedule ?? '')} : ${(err as Error).message}`, ctx);
        writeStatus();
        return;
      }
      const now = cluster.clock.now();
      let earliest = Date.parse(lastScheduleTime ?? cronJob.metadata.creationTimestamp ?? '') || now;
      if (spec.startingDeadlineSeconds !== undefined) earliest = Math.max(earliest, now - spec.startingDeadlineSeconds * 1000);
      let due: number | undefined;
      let missed = 0;
      for (let t = schedule.next(earliest); t !== undefined && t <= now; t = schedule.next(t)) {
        due = t;
        if (++missed > MAX_MISSED) {
          events.record(cronJob, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew', ctx);
          // The latest of them is what counts: jump there.
          let latest = t;
          for (let n = schedule.next(latest); n !== undefined && n <= now; n = schedule.next(n)) latest = n;
          due = latest;
          break;
        }
      }
      const nextIn = (): number | undefined => {
        const next = schedule.next(now);
        return next === undefined ? undefined : next - now + AFTER_SCHEDULE_MS;
      };
      if (due === undefined) {
        writeStatus();
        return nextIn();
      }

      if (spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
        events.record(cronJob, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid', ctx);
        writeStatus();
        return nextIn();
      }
      if (spec.concurrencyPolicy === 'Replace') {
        for (const job of active) deleteJob(cronJob, job, ctx);
        active = [];
      }

      const jobName = `${name}-${Math.floor(due / 60_000)}`;
      const template = spec.jobTemplate ?? {};
      const job: KubeObject = {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: {
          name: jobName,
          namespace,
          ...(template.metadata?.labels ? { labels: { ...template.metadata.labels } } : {}),
          ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
          ownerReferences: [controllerRef(cronJob, 'batch/v1', 'CronJob')],
        },
        spec: structuredClone(template.spec ?? {}),
      };
      try {
        active.push(cluster.create(JOBS, namespace, job, ctx).object as KubeObject);
      } catch (err) {
        if (!isConflict(err)) throw err;
        // Its name is taken (a schedule more often than once a minute): like the real controller,
        // record nothing and look again at the next time.
        writeStatus();
        return nextIn();
      }
      events.record(cronJob, 'Normal', 'SuccessfulCreate', `Created job ${jobName}`, ctx);
      lastScheduleTime = timeString(due);
      writeStatus();
      return nextIn();
    },
  };
}

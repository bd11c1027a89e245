import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { CRONJOBS } from '../../../../src/sim/workloads/cronJobController.ts';
import { EVENTS } from '../../../../src/sim/workloads/eventRecorder.ts';
import { statusOf, workloadLab, GVR, type Lab } from './harness.ts';

// CronJobs on the simulated cluster start Jobs as kube-controller-manager does: one per scheduled
// minute, named by it, kept within the history limits, as the concurrency policy allows; and a
// finished Job with a TTL is deleted that long after it finished.

function cronJob(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name },
    spec: {
      schedule: '* * * * *',
      jobTemplate: { metadata: { labels: { from: name } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'tick', image: 'busybox' }] } } } },
      ...spec,
    },
  };
}

const jobs = (lab: Lab): KubeObject[] => lab.items(GVR.jobs).sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
const cronStatus = (lab: Lab, name: string): Record<string, unknown> => statusOf(lab.cluster.get(CRONJOBS, 'default', name).object as KubeObject);
type EventObject = KubeObject & { involvedObject: { kind: string }; reason: string };
const reasons = (lab: Lab): string[] => lab.cluster.list(EVENTS, { namespace: 'default' }).items.map((e) => e.object as EventObject).filter((e) => e.involvedObject.kind === 'CronJob').map((e) => e.reason);
const minute = (ms: number): number => Math.floor(ms / 60_000);

test('each scheduled minute starts a Job named by it; finished Jobs leave status.active and only the last 3 successes stay', async () => {
  const lab = workloadLab();
  const created = lab.clock.now();
  lab.cluster.create(CRONJOBS, 'default', cronJob('tick'));
  await lab.until(() => jobs(lab).length === 1, 70_000);
  const first = jobs(lab)[0]!;
  assert.equal(first.metadata.name, `tick-${minute(created) + 1}`, 'named by the first whole minute after the CronJob was made');
  assert.deepEqual(first.metadata.labels?.from, 'tick');
  assert.equal(first.metadata.ownerReferences?.[0]?.kind, 'CronJob');
  const active = cronStatus(lab, 'tick').active as { name: string; kind: string }[];
  assert.deepEqual(active.map((r) => [r.kind, r.name]), [['Job', first.metadata.name]]);
  assert.equal(cronStatus(lab, 'tick').lastScheduleTime, new Date((minute(created) + 1) * 60_000).toISOString().replace('.000Z', 'Z'));

  await lab.until(() => cronStatus(lab, 'tick').lastSuccessfulTime !== undefined && cronStatus(lab, 'tick').active === undefined, 10_000);
  await lab.run(5 * 60_000);
  const names = jobs(lab).map((j) => j.metadata.name);
  const last = minute(lab.clock.now());
  assert.deepEqual(names, [`tick-${last - 2}`, `tick-${last - 1}`, `tick-${last}`], 'the 3 newest successful Jobs');
  assert.ok(reasons(lab).includes('SuccessfulCreate') && reasons(lab).includes('SawCompletedJob') && reasons(lab).includes('SuccessfulDelete'), reasons(lab).join(' '));
});

test('Forbid skips a time while a Job runs, Replace replaces it, suspend starts nothing', async () => {
  const lab = workloadLab({ jobPodDurationMs: 150_000 });
  lab.cluster.create(CRONJOBS, 'default', cronJob('forbid', { concurrencyPolicy: 'Forbid' }));
  lab.cluster.create(CRONJOBS, 'default', cronJob('replace', { concurrencyPolicy: 'Replace' }));
  lab.cluster.create(CRONJOBS, 'default', cronJob('paused', { suspend: true }));
  await lab.run(60_000 + 2 * 60_000 + 500);
  const byOwner = (owner: string): string[] => jobs(lab).filter((j) => j.metadata.labels?.from === owner).map((j) => j.metadata.name!);
  assert.equal(byOwner('forbid').length, 1, 'the first Job still runs, so later times were skipped');
  const replaced = byOwner('replace');
  assert.equal(replaced.length, 1, 'only the newest Job of a Replace CronJob is left');
  assert.equal(replaced[0], `replace-${minute(lab.clock.now())}`);
  assert.deepEqual(byOwner('paused'), []);
  assert.ok(reasons(lab).includes('JobAlreadyActive'));
});

test('missed schedules start one Job, for the latest time', async () => {
  const lab = workloadLab();
  const created = lab.clock.now();
  lab.cluster.create(CRONJOBS, 'default', { ...cronJob('late'), metadata: { name: 'late', creationTimestamp: new Date(created).toISOString() } });
  // The controller was away for ten minutes: a real one would start a single Job for the last minute.
  lab.clock.step(10 * 60_000);
  await lab.until(() => jobs(lab).length === 1);
  assert.equal(jobs(lab)[0]!.metadata.name, `late-${minute(lab.clock.now())}`);
});

test('a finished Job with ttlSecondsAfterFinished is deleted that long after, with its Pods', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.jobs, 'default', {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'brief' },
    spec: { ttlSecondsAfterFinished: 5, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'x', image: 'busybox' }] } } },
  });
  await lab.until(() => typeof statusOf(jobs(lab)[0]).completionTime === 'string');
  const finished = Date.parse(statusOf(jobs(lab)[0]).completionTime as string);
  await lab.run(3000);
  assert.equal(jobs(lab).length, 1, 'kept until the TTL runs out');
  await lab.until(() => jobs(lab).length === 0 && lab.items(GVR.pods).length === 0, 5000);
  assert.ok(lab.clock.now() - finished >= 5000, 'counted from completionTime');
});

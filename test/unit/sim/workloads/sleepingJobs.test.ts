import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { CRONJOBS } from '../../../../src/sim/workloads/cronJobController.ts';
import { statusOf, workloadLab, GVR, type Lab } from './harness.ts';

// A Job's Pod whose container only sleeps runs as long as it sleeps (not the simulation's short
// jobPodDurationMs), so Jobs meant to stay active do, and a CronJob's Jobs can overlap as its
// concurrency policy allows.

const jobSpec = (command: string[]): Record<string, unknown> => ({ template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox', command }] } } });
const active = (lab: Lab, name: string): string[] =>
  ((statusOf(lab.cluster.get(CRONJOBS, 'default', name).object as KubeObject).active ?? []) as { name: string }[]).map((r) => r.name);

test('a Job whose container runs `sleep 30` stays active for 30 seconds, then succeeds', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.jobs, 'default', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'nap' }, spec: jobSpec(['sleep', '30']) });
  await lab.until(() => statusOf(lab.items(GVR.jobs)[0]).active === 1);
  await lab.run(20_000);
  assert.equal(statusOf(lab.items(GVR.jobs)[0]).active, 1, 'still sleeping after 20 s');
  await lab.until(() => statusOf(lab.items(GVR.jobs)[0]).succeeded === 1, 15_000);
});

test('a shell that only sleeps counts too; a command that does anything else takes jobPodDurationMs', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.jobs, 'default', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'shell' }, spec: jobSpec(['/bin/sh', '-c', 'sleep 30']) });
  lab.cluster.create(GVR.jobs, 'default', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'work' }, spec: jobSpec(['/bin/sh', '-c', 'sleep 30; exit 0']) });
  const job = (name: string): KubeObject | undefined => lab.items(GVR.jobs).find((j) => j.metadata.name === name);
  await lab.until(() => statusOf(job('work')).succeeded === 1, 5000);
  assert.equal(statusOf(job('shell')).active, 1);
});

test('an Allow CronJob whose Jobs sleep has two active at once after two scheduled minutes', async () => {
  const lab = workloadLab();
  lab.cluster.create(CRONJOBS, 'default', {
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'concurrent' },
    spec: { schedule: '*/1 * * * ?', concurrencyPolicy: 'Allow', jobTemplate: { spec: jobSpec(['sleep', '300']) } },
  });
  await lab.until(() => active(lab, 'concurrent').length === 2, 3 * 60_000);
});

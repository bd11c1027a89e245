// A Job's activeDeadlineSeconds, as kube-controller-manager's Job controller keeps it: once the Job
// has run that long since its startTime, it is Failed (DeadlineExceeded) and its active Pods are
// deleted, whether or not they ever finish (the e2e "Job should fail when exceeds active deadline").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { httpWorkloadLab } from './httpWorkloadLab.ts';

const lab = httpWorkloadLab();
const JOBS = '/apis/batch/v1/namespaces/default/jobs';

interface JobJson { status?: { active?: number; conditions?: { type: string; status: string; reason?: string; message?: string }[] } }

describe('a Job past its active deadline', () => {
  it('is Failed with reason DeadlineExceeded, its sleeping Pods deleted', async () => {
    const created = await call(lab.server, 'POST', JOBS, {
      body: {
        apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'deadline' },
        spec: { activeDeadlineSeconds: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sleep', '1000000'] }] } } },
      },
    });
    assert.equal(created.status, 201, created.body);
    await lab.until<JobJson>(`${JOBS}/deadline`, (j) => j.status?.active === 1);
    const failed = await lab.until<JobJson>(`${JOBS}/deadline`, (j) => j.status?.conditions?.some((c) => c.type === 'Failed') === true, 5_000);
    const condition = failed.status?.conditions?.find((c) => c.type === 'Failed');
    assert.deepEqual([condition?.status, condition?.reason, condition?.message], ['True', 'DeadlineExceeded', 'Job was active longer than specified deadline']);
    const pods = await lab.until<{ items: unknown[] }>('/api/v1/namespaces/default/pods', (l) => l.items.length === 0, 5_000);
    assert.equal(pods.items.length, 0);
  });
});

// A CronJob's active Job deleted by someone else: the CronJob controller drops it from
// `status.active` and says so with a MissingJob event, as kube-controller-manager's does (the e2e
// "CronJob should remove from active list jobs that have been deleted" waits for that event).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { httpWorkloadLab } from './httpWorkloadLab.ts';

const lab = httpWorkloadLab();
const CRONJOBS = '/apis/batch/v1/namespaces/default/cronjobs';

interface CronJobJson { status?: { active?: { name: string }[] } }
interface EventList { items: { reason: string; message: string; type: string; involvedObject: { kind: string; name: string } }[] }

describe('an active Job deleted from under its CronJob', () => {
  it('leaves status.active, with a MissingJob event', async () => {
    const created = await call(lab.server, 'POST', CRONJOBS, {
      body: {
        apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'forbid' },
        spec: {
          schedule: '*/1 * * * ?', concurrencyPolicy: 'Forbid',
          jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox', command: ['sleep', '1000000'] }] } } } },
        },
      },
    });
    assert.equal(created.status, 201, created.body);
    const scheduled = await lab.until<CronJobJson>(`${CRONJOBS}/forbid`, (c) => c.status?.active?.length === 1, 70_000);
    const job = scheduled.status!.active![0]!.name;
    const deleted = await call(lab.server, 'DELETE', `/apis/batch/v1/namespaces/default/jobs/${job}`, { body: { propagationPolicy: 'Background' } });
    assert.equal(deleted.status, 200, deleted.body);
    await lab.until<CronJobJson>(`${CRONJOBS}/forbid`, (c) => !c.status?.active, 5_000);
    const events = await lab.until<EventList>('/api/v1/namespaces/default/events', (l) => l.items.some((e) => e.reason === 'MissingJob'), 5_000);
    const missing = events.items.find((e) => e.reason === 'MissingJob')!;
    assert.deepEqual([missing.type, missing.message, missing.involvedObject.kind, missing.involvedObject.name], ['Normal', `Active job went missing: ${job}`, 'CronJob', 'forbid']);
  });
});

// A delete naming no propagation gets the kind's default, as kube-apiserver keeps it for two v1
// APIs: a ReplicationController's Pods and a Job's Pods are orphaned (a Job's delete warns so),
// while a ReplicaSet's go with it (the e2e "Garbage collector should orphan pods created by rc if
// deleteOptions.OrphanDependents is nil"). kubectl names a propagation and is not affected.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { httpWorkloadLab } from './httpWorkloadLab.ts';

const lab = httpWorkloadLab();
const NS = '/api/v1/namespaces/default';

interface PodList { items: { metadata: { name: string; labels?: Record<string, string>; ownerReferences?: unknown[] } }[] }
const podsLabelled = (app: string) => lab.until<PodList>(`${NS}/pods?labelSelector=app%3D${app}`, (l) => l.items.length === 2);
const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '100000'] }] } });

async function settle(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 100) {
    lab.clock.step(100);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('deletes that name no propagation', () => {
  it('orphan a ReplicationController\'s Pods', async () => {
    const rc = await call(lab.server, 'POST', `${NS}/replicationcontrollers`, { body: { metadata: { name: 'rc' }, spec: { replicas: 2, selector: { app: 'rc' }, template: template('rc') } } });
    assert.equal(rc.status, 201, rc.body);
    await podsLabelled('rc');
    const deleted = await call(lab.server, 'DELETE', `${NS}/replicationcontrollers/rc`, { body: { preconditions: { uid: rc.json().metadata.uid } } });
    assert.equal(deleted.status, 200, deleted.body);
    await settle(3_000);
    const pods = (await call(lab.server, 'GET', `${NS}/pods?labelSelector=app%3Drc`)).json() as PodList;
    assert.equal(pods.items.length, 2);
    assert.deepEqual(pods.items.map((p) => p.metadata.ownerReferences), [undefined, undefined]);
  });

  it('orphan a Job\'s Pods, with kube-apiserver\'s warning; Background takes them along', async () => {
    const spec = { parallelism: 2, completions: 2, template: { ...template('job'), spec: { ...template('job').spec, restartPolicy: 'Never' } } };
    assert.equal((await call(lab.server, 'POST', '/apis/batch/v1/namespaces/default/jobs', { body: { metadata: { name: 'job' }, spec } })).status, 201);
    await podsLabelled('job');
    const deleted = await call(lab.server, 'DELETE', '/apis/batch/v1/namespaces/default/jobs/job');
    assert.equal(deleted.status, 200, deleted.body);
    assert.match(String(deleted.headers.warning), /child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning/);
    await settle(3_000);
    assert.equal(((await call(lab.server, 'GET', `${NS}/pods?labelSelector=app%3Djob`)).json() as PodList).items.length, 2);
    const rs = await call(lab.server, 'POST', '/apis/apps/v1/namespaces/default/replicasets', { body: { metadata: { name: 'rs' }, spec: { replicas: 2, selector: { matchLabels: { app: 'rs' } }, template: template('rs') } } });
    assert.equal(rs.status, 201, rs.body);
    await podsLabelled('rs');
    assert.equal((await call(lab.server, 'DELETE', '/apis/apps/v1/namespaces/default/replicasets/rs')).status, 200);
    await lab.until<PodList>(`${NS}/pods?labelSelector=app%3Drs`, (l) => l.items.length === 0, 60_000);
  });
});

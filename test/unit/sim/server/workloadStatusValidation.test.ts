import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// A workload's /status write is validated as kube-apiserver's apps validation does it: counts not
// below zero and none above status.replicas. Messages as kube-apiserver v1.28.4 gave them.

const suite = suiteServer();
const APPS = '/apis/apps/v1/namespaces/default';
const labels = { app: 'st' };
const spec = { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } };
const status = (resource: string, name: string, body: unknown) => call(suite.server, 'PATCH', `${APPS}/${resource}/${name}/status`, { body: { status: body }, contentType: 'application/merge-patch+json' });

describe('workload status validation', () => {
  before(async () => {
    for (const [resource, kind] of [['deployments', 'Deployment'], ['replicasets', 'ReplicaSet'], ['statefulsets', 'StatefulSet'], ['daemonsets', 'DaemonSet']]) {
      const r = await call(suite.server, 'POST', `${APPS}/${resource}`, { body: { apiVersion: 'apps/v1', kind, metadata: { name: 'st' }, spec } });
      assert.equal(r.status, 201, r.body);
    }
  });

  it('refuses counts above status.replicas and available above ready, in each kind\'s words', async () => {
    const counts = { replicas: 1, readyReplicas: 2, availableReplicas: 3, updatedReplicas: 4, observedGeneration: -1 };
    const d = await status('deployments', 'st', { ...counts, collisionCount: -2 });
    assert.equal(d.status, 422, d.body);
    assert.equal(d.json().message, 'Deployment.apps "st" is invalid: [status.observedGeneration: Invalid value: -1: must be greater than or equal to 0, status.collisionCount: Invalid value: -2: must be greater than or equal to 0, status.updatedReplicas: Invalid value: 4: cannot be greater than status.replicas, status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas]');
    const rs = await status('replicasets', 'st', { replicas: -1 });
    assert.equal(rs.json().message, 'ReplicaSet.apps "st" is invalid: [status.replicas: Invalid value: -1: must be greater than or equal to 0, status.fullyLabeledReplicas: Invalid value: 0: cannot be greater than status.replicas, status.readyReplicas: Invalid value: 0: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas]');
    const ss = await status('statefulsets', 'st', { replicas: 1, readyReplicas: 1, availableReplicas: 2 });
    assert.equal(ss.json().message, 'StatefulSet.apps "st" is invalid: [status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas]');
    const ds = await status('daemonsets', 'st', { numberReady: -1 });
    assert.equal(ds.json().message, 'DaemonSet.apps "st" is invalid: status.numberReady: Invalid value: -1: must be greater than or equal to 0');
  });

  it('takes a status whose counts hold together', async () => {
    const ok = await status('deployments', 'st', { replicas: 2, readyReplicas: 2, availableReplicas: 1, updatedReplicas: 2, observedGeneration: 1 });
    assert.equal(ok.status, 200, ok.body);
    assert.equal(ok.json().status.availableReplicas, 1);
  });
});

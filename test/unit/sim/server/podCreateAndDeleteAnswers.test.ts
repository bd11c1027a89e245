import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// A new Pod as kube-apiserver answers it: its service account's token mounted (the ServiceAccount
// admission plugin), its QoS class, and managedFields recording what the request set — not what
// admission added. Its delete answers the pod marked for deletion, at once when no node runs it.

const suite = suiteServer();
const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

describe('a new Pod', () => {
  it('gets its service account token mounted in every container', async () => {
    const r = await call(suite.server, 'POST', PODS, { body: pod('mounted') });
    assert.equal(r.status, 201, r.body);
    const spec = r.json().spec;
    const [volume] = spec.volumes;
    assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(volume.projected.sources.map((s: Record<string, unknown>) => Object.keys(s)[0]), ['serviceAccountToken', 'configMap', 'downwardAPI']);
    assert.deepEqual(spec.containers[0].volumeMounts, [{ name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
  });

  it('does not when the pod turns automounting off', async () => {
    const r = await call(suite.server, 'POST', PODS, { body: pod('unmounted', { automountServiceAccountToken: false }) });
    assert.equal(r.json().spec.volumes, undefined);
  });

  it('has its QoS class in its status', async () => {
    assert.equal((await call(suite.server, 'POST', PODS, { body: pod('besteffort') })).json().status.qosClass, 'BestEffort');
    const guaranteed = pod('guaranteed');
    (guaranteed.spec.containers as Record<string, unknown>[])[0]!['resources'] = { limits: { cpu: '1', memory: '1Gi' } };
    assert.equal((await call(suite.server, 'POST', PODS, { body: guaranteed })).json().status.qosClass, 'Guaranteed');
  });

  it('records in managedFields what the request set and defaulting filled in, not what admission added', async () => {
    const r = await call(suite.server, 'POST', PODS, { body: pod('managed') });
    const fields = r.json().metadata.managedFields[0].fieldsV1['f:spec'];
    assert.ok('f:dnsPolicy' in fields, 'defaults are the request\'s');
    for (const added of ['f:serviceAccountName', 'f:priority', 'f:tolerations', 'f:volumes']) assert.equal(added in fields, false, added);
  });
});

describe('deleting a Pod', () => {
  it('no node runs answers the pod marked deleted with period 0, and it is gone', async () => {
    assert.equal((await call(suite.server, 'POST', PODS, { body: pod('gone') })).status, 201);
    const r = await call(suite.server, 'DELETE', `${PODS}/gone`);
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().kind, 'Pod');
    assert.equal(r.json().metadata.deletionGracePeriodSeconds, 0);
    assert.ok(r.json().metadata.deletionTimestamp);
    assert.equal((await call(suite.server, 'GET', `${PODS}/gone`)).status, 404);
  });
});

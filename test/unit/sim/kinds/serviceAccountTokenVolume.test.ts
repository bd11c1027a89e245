import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suiteServer } from '../server/suiteServer.ts';
import { call } from '../server/httpClient.ts';

// The API server's ServiceAccount admission mounts the service account token into a new Pod's
// containers unless the pod, or else its service account, opts out.

const s = suiteServer();
const MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

async function mounted(name: string, serviceAccountName: string, automount?: boolean): Promise<boolean> {
  const spec = { serviceAccountName, containers: [{ name: 'c', image: 'agnhost:2.45' }], ...(automount === undefined ? {} : { automountServiceAccountToken: automount }) };
  const answer = await call(s.server, 'POST', '/api/v1/namespaces/default/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec } });
  assert.equal(answer.status, 201, answer.body);
  const pod = answer.json();
  const mounts = pod.spec.containers[0].volumeMounts ?? [];
  const mount = mounts.find((m: { mountPath: string }) => m.mountPath === MOUNT);
  if (!mount) return false;
  assert.equal(mount.readOnly, true);
  const volume = pod.spec.volumes.find((v: { name: string }) => v.name === mount.name);
  assert.match(mount.name, /^kube-api-access-[a-z0-9]{5}$/);
  assert.deepEqual(volume.projected.sources.map((p: Record<string, unknown>) => Object.keys(p)[0]), ['serviceAccountToken', 'configMap', 'downwardAPI']);
  return true;
}

test('the token is mounted by default; automountServiceAccountToken: false on the account or the pod opts out, the pod deciding', async () => {
  for (const [name, automount] of [['mount', true], ['nomount', false]] as const) {
    const sa = await call(s.server, 'POST', '/api/v1/namespaces/default/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name }, automountServiceAccountToken: automount } });
    assert.equal(sa.status, 201, sa.body);
  }
  assert.equal(await mounted('default-sa', 'default'), true);
  assert.equal(await mounted('mount-sa', 'mount'), true);
  assert.equal(await mounted('nomount-sa', 'nomount'), false);
  assert.equal(await mounted('nomount-sa-pod-true', 'nomount', true), true, 'the pod opts back in');
  assert.equal(await mounted('mount-sa-pod-false', 'mount', false), false, 'the pod opts out');
});

test('a container that already mounts something at the token path keeps it', async () => {
  const spec = {
    volumes: [{ name: 'own', emptyDir: {} }],
    containers: [{ name: 'c', image: 'agnhost:2.45', volumeMounts: [{ name: 'own', mountPath: MOUNT }] }],
  };
  const answer = await call(s.server, 'POST', '/api/v1/namespaces/default/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'own-mount' }, spec } });
  assert.equal(answer.status, 201, answer.body);
  assert.deepEqual(answer.json().spec.containers[0].volumeMounts, [{ name: 'own', mountPath: MOUNT }]);
  assert.deepEqual(answer.json().spec.volumes.map((v: { name: string }) => v.name), ['own']);
});

test('the token volume is named alike for every pod of one service account, so runs of a scenario compare alike', async () => {
  const volumeOf = async (name: string): Promise<string> => {
    const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'agnhost:2.45' }] } };
    const answer = await call(s.server, 'POST', '/api/v1/namespaces/default/pods', { body });
    assert.equal(answer.status, 201, answer.body);
    return answer.json().spec.volumes[0].name;
  };
  assert.equal(await volumeOf('first'), await volumeOf('second'));
});

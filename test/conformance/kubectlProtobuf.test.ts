// A sim that says it is v1.32 gets kubectl 1.32 from the dispatcher, which sends protobuf bodies for
// `kubectl create namespace|configmap|secret|serviceaccount` (as controller-runtime does for built-in
// kinds): they must land as the same objects JSON would have made.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectlOk, startSimProcess, type SimProcess } from './simProcess.ts';

let sim: SimProcess;

before(async () => {
  sim = await startSimProcess(['--server-version', 'v1.32.2']);
});

after(async () => {
  assert.equal(await sim.stop(), 0);
});

it('kubectl 1.32 creates namespaces, config maps, secrets and service accounts over protobuf', async () => {
  const version = JSON.parse(await kubectlOk(sim, ['version', '-o', 'json']));
  assert.match(version.clientVersion.gitVersion, /^v1\.32\./);

  const verbose = await kubectl(sim, ['create', 'namespace', 'pb', '-v=8']);
  assert.equal(verbose.code, 0, verbose.stderr);
  assert.match(verbose.stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf/);

  await Promise.all([
    kubectlOk(sim, ['-n', 'pb', 'create', 'configmap', 'cm1', '--from-literal=a=b', '--from-literal=c=d']),
    kubectlOk(sim, ['-n', 'pb', 'create', 'secret', 'generic', 's1', '--from-literal=p=q']),
    kubectlOk(sim, ['-n', 'pb', 'create', 'serviceaccount', 'robot']),
  ]);
  const cm = JSON.parse(await kubectlOk(sim, ['-n', 'pb', 'get', 'configmap', 'cm1', '-o', 'json']));
  assert.deepEqual(cm.data, { a: 'b', c: 'd' });
  assert.equal(cm.metadata.namespace, 'pb');
  assert.equal(cm.metadata.generateName, undefined, 'empty protobuf strings are not fields');
  const secret = JSON.parse(await kubectlOk(sim, ['-n', 'pb', 'get', 'secret', 's1', '-o', 'json']));
  assert.deepEqual(secret.data, { p: Buffer.from('q').toString('base64') });
  assert.equal(JSON.parse(await kubectlOk(sim, ['-n', 'pb', 'get', 'serviceaccount', 'robot', '-o', 'json'])).metadata.name, 'robot');

  // A kind without a protobuf table: a 415 that says how to send JSON.
  const deploy = await kubectl(sim, ['-n', 'pb', 'create', 'deployment', 'web', '--image=nginx']);
  assert.notEqual(deploy.code, 0);
  assert.match(deploy.stderr, /send JSON instead/);
  // Deleting sends protobuf DeleteOptions.
  assert.match(await kubectlOk(sim, ['-n', 'pb', 'delete', 'configmap', 'cm1']), /deleted/);
});

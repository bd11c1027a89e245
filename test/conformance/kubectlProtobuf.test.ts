// A sim that says it is v1.32 gets kubectl 1.32 from the dispatcher, which sends protobuf bodies for
// `kubectl create namespace|configmap|secret|serviceaccount|deployment|cronjob|job|service` (as
// controller-runtime does for built-in kinds): they must land as the same objects JSON would have made.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectlOk, rawRequest, startSimProcess, type SimProcess } from './simProcess.ts';

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

  // A kind the sim has no protobuf schema for (it does not serve StorageVersions): a 415 that says
  // how to send JSON. The body is the envelope alone: TypeMeta {internal.apiserver.k8s.io/v1alpha1, StorageVersion}.
  const typeMeta = Buffer.concat([Buffer.from([0x0a, 34]), Buffer.from('internal.apiserver.k8s.io/v1alpha1'), Buffer.from([0x12, 14]), Buffer.from('StorageVersion')]);
  const unknownKind = Buffer.concat([Buffer.from('k8s\0', 'latin1'), Buffer.from([0x0a, typeMeta.length]), typeMeta]);
  const refused = await rawRequest(sim, 'POST', '/api/v1/namespaces/pb/configmaps', { body: unknownKind, headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' } });
  assert.equal(refused.status, 415, refused.body);
  assert.match(JSON.parse(refused.body).message, /not internal\.apiserver\.k8s\.io\/v1alpha1\/StorageVersion: send JSON instead/);
  // Deleting sends protobuf DeleteOptions.
  assert.match(await kubectlOk(sim, ['-n', 'pb', 'delete', 'configmap', 'cm1']), /deleted/);
});

it('kubectl 1.32 creates deployments, cron jobs, jobs and services over protobuf', async () => {
  await kubectlOk(sim, ['create', 'namespace', 'work']);
  const verbose = await kubectl(sim, ['-n', 'work', 'create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3', '--port=8080', '-v=8']);
  assert.equal(verbose.code, 0, verbose.stderr);
  assert.match(verbose.stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf/);
  await Promise.all([
    kubectlOk(sim, ['-n', 'work', 'create', 'cronjob', 'tick', '--image=busybox:1.36', '--schedule=*/5 * * * *', '--', 'echo', 'hi']),
    kubectlOk(sim, ['-n', 'work', 'create', 'job', 'once', '--image=busybox:1.36', '--', 'date']),
    kubectlOk(sim, ['-n', 'work', 'create', 'service', 'clusterip', 'web', '--tcp=80:8080', '--tcp=443:https']),
  ]);
  const get = async (what: string) => JSON.parse(await kubectlOk(sim, ['-n', 'work', 'get', what, '-o', 'json']));

  const deploy = await get('deployment/web');
  assert.equal(deploy.spec.replicas, 3);
  assert.deepEqual(deploy.spec.selector, { matchLabels: { app: 'web' } });
  assert.deepEqual(deploy.spec.template.metadata.labels, { app: 'web' });
  const [container] = deploy.spec.template.spec.containers;
  assert.equal(container.image, 'nginx:1.27');
  assert.deepEqual(container.ports, [{ containerPort: 8080, protocol: 'TCP' }]);
  assert.equal(deploy.spec.strategy.type, 'RollingUpdate', 'defaulted as for JSON');
  assert.equal(deploy.spec.paused, undefined, 'Go writes paused=false in protobuf; JSON leaves it out');

  const cron = await get('cronjob/tick');
  assert.equal(cron.spec.schedule, '*/5 * * * *');
  assert.deepEqual(cron.spec.jobTemplate.spec.template.spec.containers[0].command, ['echo', 'hi']);
  assert.equal(cron.spec.jobTemplate.spec.template.spec.restartPolicy, 'OnFailure');

  const job = await get('job/once');
  assert.equal(job.spec.template.spec.containers[0].image, 'busybox:1.36');
  assert.deepEqual(job.spec.template.spec.containers[0].command, ['date']);
  assert.equal(job.spec.template.spec.restartPolicy, 'Never');

  const svc = await get('service/web');
  assert.equal(svc.spec.type, 'ClusterIP');
  assert.deepEqual(svc.spec.selector, { app: 'web' });
  assert.deepEqual(
    svc.spec.ports.map((p: { name: string; port: number; targetPort: number | string; protocol: string }) => [p.name, p.port, p.targetPort, p.protocol]),
    [['80-8080', 80, 8080, 'TCP'], ['443-https', 443, 'https', 'TCP']],
  );
});

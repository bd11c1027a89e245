import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchSim } from '../../../src/runtime/simLauncher.ts';
import { jsonPatch, startWebhookServer, webhook } from '../sim/admission/webhookServer.ts';

// `run --sim` starts the scenario once a Go program has installed its webhook configurations
// (controllerlab.Wrap): the scenario's objects, kubebuilder's samples, then go through the
// program's defaulting and validation webhooks as `kubectl apply -k config/samples` would, and a
// step the validating webhook refuses is a failed step, as a refused kubectl call is.

const CM = { group: '', version: 'v1', resource: 'configmaps' };

test('a scenario\'s objects and steps go through the admission webhooks the cluster holds', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-scenario-webhooks-'));
  const server = await startWebhookServer();
  t.after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  server.on('/default', () => ({ allowed: true, ...jsonPatch([{ op: 'add', path: '/data/defaulted', value: 'yes' }]) }));
  server.on('/validate', (review) => (review.request.object?.data?.size === 'huge' ? { allowed: false, status: { code: 403, message: 'size huge is refused' } } : { allowed: true }));
  const scenario = join(dir, 'scenario.yaml');
  writeFileSync(
    scenario,
    [
      'objects:',
      '  - { apiVersion: v1, kind: ConfigMap, metadata: { name: sample, namespace: default }, data: { size: small } }',
      'steps:',
      '  - at: 10ms',
      '    patch: { target: { kind: ConfigMap, namespace: default, name: sample }, patch: { data: { size: huge } } }',
      '  - after: 10ms',
      '    create: { apiVersion: v1, kind: ConfigMap, metadata: { name: later, namespace: default }, data: { size: medium } }',
      '',
    ].join('\n'),
  );
  const failed: string[] = [];
  const sim = await launchSim({ scenario, onScenarioStepFailed: (problem) => failed.push(problem) });
  t.after(() => sim.stop());
  // What controllerlab.Wrap installs before the scenario starts.
  const admission = { group: 'admissionregistration.k8s.io', version: 'v1' };
  sim.cluster.create({ ...admission, resource: 'mutatingwebhookconfigurations' }, '', {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'defaulting' },
    webhooks: [webhook('default.example.com', `${server.url}/default`, server.caBundle)],
  } as never);
  sim.cluster.create({ ...admission, resource: 'validatingwebhookconfigurations' }, '', {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'validating' },
    webhooks: [webhook('validate.example.com', `${server.url}/validate`, server.caBundle)],
  } as never);

  sim.startScenario();
  await sim.scenarioDone;
  assert.deepEqual(failed, [`${scenario}:4:1: steps[0]: admission webhook "validate.example.com" denied the request: size huge is refused`]);
  assert.deepEqual(sim.cluster.get(CM, 'default', 'sample').object.data, { size: 'small', defaulted: 'yes' });
  assert.deepEqual(sim.cluster.get(CM, 'default', 'later').object.data, { size: 'medium', defaulted: 'yes' });
  assert.deepEqual(server.reviews.map((r) => `${r.path.split('?')[0]} ${r.request.operation} ${r.request.name}`), [
    '/default CREATE sample',
    '/validate CREATE sample',
    '/default UPDATE sample',
    '/validate UPDATE sample',
    '/default CREATE later',
    '/validate CREATE later',
  ]);
});

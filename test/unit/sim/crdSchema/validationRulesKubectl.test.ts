// What a user sees from kubectl when a custom resource breaks its CRD's validation rules: the
// CRD applied with kubectl, then an object applied that fails, against the sim over HTTPS.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { GOOD_SPEC, widget, widgetCrd } from './ruleFixtures.ts';

let cluster: SimCluster;
let server: SimServerHandle;

before(async () => {
  cluster = createSimCluster();
  server = await startSimServer(cluster);
});

after(async () => {
  await server.stop();
  await cluster.close();
});

function kubectlApply(object: unknown): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', server.kubeconfigPath, 'apply', '-n', 'default', '-f', '-'], { timeout: 60_000 }, (_err, stdout, stderr) => {
      resolve({ code: child.exitCode, stdout, stderr });
    });
    child.stdin?.end(JSON.stringify(object));
  });
}

describe('kubectl apply against CEL validation rules', () => {
  it('prints the rule\'s message for the field, and a list when several rules fail', async () => {
    const crd = await kubectlApply(widgetCrd());
    assert.equal(crd.code, 0, crd.stderr);
    const one = await kubectlApply(widget('w-one', { ...GOOD_SPEC, minReplicas: 5 }));
    assert.equal(one.code, 1);
    assert.equal(one.stderr.trim(), 'The Widget "w-one" is invalid: spec: Invalid value: "object": minReplicas must not exceed maxReplicas');
    const two = await kubectlApply(widget('two', { ...GOOD_SPEC, minReplicas: 5 }));
    assert.equal(two.code, 1);
    assert.equal(two.stderr.trim(), [
      'The Widget "two" is invalid: ',
      '* <nil>: Invalid value: "object": name must start with w-',
      '* spec: Invalid value: "object": minReplicas must not exceed maxReplicas',
    ].join('\n'));
    const good = await kubectlApply(widget('w-good', GOOD_SPEC));
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, /widget\.rules\.example\.com\/w-good created/);
    const changed = await kubectlApply(widget('w-good', { ...GOOD_SPEC, mode: 'slow' }));
    assert.equal(changed.code, 1);
    assert.equal(changed.stderr.trim(), 'The Widget "w-good" is invalid: spec.mode: Invalid value: "string": Value is immutable');
  });
});

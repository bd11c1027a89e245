// kubectl (/usr/bin/kubectl) against the simulated cluster over HTTPS: explain reads the OpenAPI v3
// documents (and the v2 protobuf one with --output=plaintext-openapiv2), CRD schemas included and
// followed when the CRD changes, and apply --validate=strict leaves unknown fields to the server
// because the documents say PATCH takes fieldValidation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { CRDS, cronTabCrd } from './crdFixtures.ts';

let cluster: SimCluster;
let server: SimServerHandle;
let cacheRoot: string;
let runs = 0;

before(async () => {
  cluster = createSimCluster({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')) });
  server = await startSimServer(cluster);
  cacheRoot = await mkdtemp(join(tmpdir(), 'openapi-kubectl-'));
});
after(async () => {
  await server.stop();
  await cluster.close();
  await rm(cacheRoot, { recursive: true, force: true });
});

/** kubectl with the sim's kubeconfig and a fresh discovery/OpenAPI cache, so no run reads another's. */
function kubectl(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const cache = join(cacheRoot, String(++runs));
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', server.kubeconfigPath, '--cache-dir', cache, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

async function ok(args: string[], input?: string): Promise<string> {
  const r = await kubectl(args, input);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}:\n${r.stderr}`);
  return r.stdout;
}

describe('kubectl explain and validation against the simulated cluster', { concurrency: true }, () => {
  it('explain deployment.spec.strategy shows the field, its type, description and enum values', async () => {
    const out = await ok(['explain', 'deployment.spec.strategy']);
    assert.match(out, /KIND:\s+Deployment/);
    assert.match(out, /FIELD: strategy <DeploymentStrategy>/);
    assert.match(out, /The deployment strategy to use to replace existing pods with new ones\./);
    assert.match(out, /rollingUpdate\s+<RollingUpdateDeployment>/);
    assert.match(out, /- `"Recreate"` Kill all existing pods before creating new ones\./);
  });

  it('explain pods.spec.containers --recursive walks the nested types, required fields marked', async () => {
    const out = await ok(['explain', 'pods.spec.containers', '--recursive']);
    assert.match(out, /FIELD: containers <\[\]Container>/);
    assert.match(out, /\n {2}env\t<\[\]EnvVar>\n {4}name\t<string> -required-/);
    assert.match(out, /resources\t<ResourceRequirements>\n {4}claims\t<\[\]ResourceClaim>/);
    assert.match(out, /livenessProbe\t<Probe>/);
  });

  it('explain with the Swagger 2.0 protobuf document kubectl downloads from /openapi/v2', async () => {
    const out = await ok(['explain', 'deployment.spec.strategy', '--output=plaintext-openapiv2']);
    assert.match(out, /RESOURCE: strategy <Object>/);
    assert.match(out, /rollingUpdate\t<Object>/);
  });

  it('apply --validate=strict of an unknown field is refused by the server, as kube-apiserver refuses it', async () => {
    const r = await kubectl(['apply', '--validate=strict', '-n', 'default', '-f', '-'], 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: strict}\nspec:\n  selector: {matchLabels: {app: s}}\n  replicaz: 3\n  template:\n    metadata: {labels: {app: s}}\n    spec: {containers: [{name: c, image: nginx}]}\n');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Error from server \(BadRequest\).*strict decoding error: unknown field "spec\.replicaz"/);
  });

  it('a List is validated on the client against /openapi/v2, with the error a real cluster gives', async () => {
    const list = 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: listed, namespace: default}\n  spec:\n    replicaz: 2\n    selector: {matchLabels: {app: l}}\n    template:\n      metadata: {labels: {app: l}}\n      spec: {containers: [{name: c, image: nginx}]}\n';
    const r = await kubectl(['apply', '--validate=strict', '-f', '-'], list);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /error validating data: ValidationError\(Deployment\.spec\): unknown field "replicaz" in io\.k8s\.api\.apps\.v1\.DeploymentSpec/);
  });

  it('apply uses the published patch strategies: a second apply merges containers by name', async () => {
    const manifest = (image: string, env: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: merged}\nspec:\n  selector: {matchLabels: {app: m}}\n  template:\n    metadata: {labels: {app: m}}\n    spec: {containers: [{name: c, image: ${image}, env: [${env}]}]}\n`;
    await ok(['apply', '-n', 'default', '-f', '-'], manifest('nginx:1.25', '{name: A, value: "1"}'));
    await ok(['apply', '-n', 'default', '-f', '-'], manifest('nginx:1.26', '{name: A, value: "1"}, {name: B, value: "2"}'));
    const containers = JSON.parse(await ok(['get', 'deployment', 'merged', '-n', 'default', '-o', 'jsonpath={.spec.template.spec.containers}']));
    assert.equal(containers.length, 1);
    assert.equal(containers[0].image, 'nginx:1.26');
    assert.deepEqual(containers[0].env, [{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
  });
});

describe('kubectl explain of a custom resource', () => {
  it('shows the CRD schema, and the new field once the CRD is updated', async () => {
    cluster.create(CRDS, '', cronTabCrd());
    const out = await ok(['explain', 'crontab.spec']);
    assert.match(out, /GROUP:\s+stable\.example\.com\n\s*KIND:\s+CronTab/);
    assert.match(out, /cronSpec\t<string> -required-\n\s+The schedule in cron format\./);
    assert.doesNotMatch(out, /timeZone/);
    const stored = cluster.get(CRDS, '', 'crontabs.stable.example.com').object;
    cluster.update(CRDS, '', 'crontabs.stable.example.com', { ...cronTabCrd({ timeZone: { type: 'string', description: 'The zone the schedule is read in.' } }), metadata: stored.metadata });
    assert.match(await ok(['explain', 'crontab.spec.timeZone']), /The zone the schedule is read in\./);
    const v2 = await ok(['explain', 'crontab.spec', '--output=plaintext-openapiv2']);
    assert.match(v2, /cronSpec\t<string> -required-/);
  });

  it('apply --validate=strict of a custom resource with an unknown field is refused; the default drops it with a warning', async () => {
    const manifest = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: nightly, namespace: default}\nspec: {cronSpec: "0 0 * * *", colour: red}\n';
    const strict = await kubectl(['apply', '--validate=strict', '-f', '-'], manifest);
    assert.notEqual(strict.code, 0);
    assert.match(strict.stderr, /CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec\.colour"/);
    const warn = await kubectl(['apply', '--validate=warn', '-f', '-'], manifest);
    assert.equal(warn.code, 0, warn.stderr);
    assert.match(warn.stderr, /Warning: unknown field "spec\.colour"/);
    const stored = JSON.parse(await ok(['get', 'crontab', 'nightly', '-n', 'default', '-o', 'json']));
    assert.deepEqual(stored.spec, { cronSpec: '0 0 * * *', replicas: 1 });
  });
});

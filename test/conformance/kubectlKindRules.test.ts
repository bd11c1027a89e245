// Real kubectl against `controller-lab sim` for the rules kube-apiserver applies per kind: typed
// decoding (wrong types, unknown fields under kubectl's strict validation), Secret stringData,
// ConfigMap limits, required and immutable fields, and Deployment generations on `kubectl annotate`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespace, kubectl, kubectlOk, simForFile, type Json } from './simProcess.ts';

const sim = simForFile();

describe('per-kind rules with kubectl', { concurrency: true }, () => {
  it('a ConfigMap with a number in data is refused as the API server refuses it', async () => {
    const ns = await createNamespace(sim, 'typed');
    const r = await kubectl(sim, ['create', '-n', ns, '-f', '-'], { input: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bad}\ndata: {a: 1}\n' });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /cannot unmarshal number into Go struct field ConfigMap\.data of type string/);
    assert.doesNotMatch(await kubectlOk(sim, ['get', 'configmaps', '-n', ns, '-o', 'name']), /configmap\/bad/);
  });

  it('kubectl apply with an unknown field fails under its default strict validation, and passes with --validate=false', async () => {
    const ns = await createNamespace(sim, 'strict');
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: extra}\ndata: {a: b}\nspec: {x: 1}\n';
    const strict = await kubectl(sim, ['apply', '-n', ns, '-f', '-'], { input: manifest });
    assert.notEqual(strict.code, 0);
    assert.match(strict.stderr, /unknown field "spec"/);
    await kubectlOk(sim, ['apply', '-n', ns, '--validate=false', '-f', '-'], manifest);
    const cm: Json = JSON.parse(await kubectlOk(sim, ['get', 'cm', 'extra', '-n', ns, '-o', 'json']));
    assert.equal(cm.spec, undefined);
  });

  it('a Secret applied with stringData is stored as base64 data of type Opaque', async () => {
    const ns = await createNamespace(sim, 'secrets');
    await kubectlOk(sim, ['apply', '-n', ns, '-f', '-'], 'apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {password: hunter2}\n');
    const s: Json = JSON.parse(await kubectlOk(sim, ['get', 'secret', 'creds', '-n', ns, '-o', 'json']));
    assert.equal(s.type, 'Opaque');
    assert.equal(s.stringData, undefined);
    assert.equal(Buffer.from(s.data.password, 'base64').toString(), 'hunter2');
  });

  it('a Deployment without containers is refused with the API server\'s field error, and kubectl create deployment still works', async () => {
    const ns = await createNamespace(sim, 'required');
    const manifest = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: empty}\nspec:\n  selector: {matchLabels: {app: empty}}\n  template:\n    metadata: {labels: {app: empty}}\n    spec: {containers: []}\n';
    const r = await kubectl(sim, ['apply', '-n', ns, '-f', '-'], { input: manifest });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /The Deployment "empty" is invalid: spec\.template\.spec\.containers: Required value/);
    await kubectlOk(sim, ['create', 'deployment', 'web', '--image=nginx:1.25', '-n', ns]);
    const d: Json = JSON.parse(await kubectlOk(sim, ['get', 'deployment', 'web', '-n', ns, '-o', 'json']));
    assert.deepEqual(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    const moved = await kubectl(sim, ['patch', 'deployment', 'web', '-n', ns, '--type=merge', '-p', '{"spec":{"selector":{"matchLabels":{"app":"other"}}}}']);
    assert.notEqual(moved.code, 0);
    assert.match(moved.stderr, /spec\.selector: Invalid value: .*field is immutable/);
  });

  it('kubectl annotate moves a Deployment\'s generation', async () => {
    const ns = await createNamespace(sim, 'generations');
    await kubectlOk(sim, ['create', 'deployment', 'web', '--image=nginx', '-n', ns]);
    await kubectlOk(sim, ['annotate', 'deployment', 'web', 'team=payments', '-n', ns]);
    assert.equal(await kubectlOk(sim, ['get', 'deployment', 'web', '-n', ns, '-o', 'jsonpath={.metadata.generation}']), '2');
  });
});

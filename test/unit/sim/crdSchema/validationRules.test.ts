// x-kubernetes-validations (CEL) rules on custom resources, over HTTP as clients see them: each
// failing rule a cause of one 422 in kube-apiserver's words, on create, update, /status and
// server-side apply; transition rules (oldSelf) only on update.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { CRDS } from '../openapi/crdFixtures.ts';
import { GOOD_SPEC, widget, widgetCrd, WIDGETS_PATH } from './ruleFixtures.ts';

const sim = suiteServer();

function causesOf(body: { details?: { causes?: { field: string; message: string }[] } }): string[] {
  return (body.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`).sort();
}

describe('custom resources against their CEL validation rules', () => {
  before(() => {
    sim.cluster.create(CRDS, '', widgetCrd());
  });

  it('accepts an object every rule passes', async () => {
    const r = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-good', GOOD_SPEC) });
    assert.equal(r.status, 201, r.body);
  });

  it('refuses an object with every failing rule as a cause: root, nested, list, list items, map, number', async () => {
    const spec = { minReplicas: 5, maxReplicas: 2, owner: '', ports: [0, 80, 70000], containers: [{ name: 'sidecar', image: 'busybox' }], labels: { 'much-too-long-key': 'x' }, ratio: 1.5 };
    const r = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('bad', spec) });
    assert.equal(r.status, 422, r.body);
    const body = r.json();
    assert.equal(body.reason, 'Invalid');
    assert.deepEqual(causesOf(body), [
      '<nil>: Invalid value: "object": name must start with w-',
      'spec.containers: Required value: a container named main is required',
      'spec.containers[0].image: Invalid value: "object": image needs a tag',
      'spec.labels: Invalid value: "object": label keys at most 10 characters, values non-empty',
      'spec.owner: Forbidden: failed rule: !has(self.owner) || self.owner != \'\'',
      'spec.ports: Invalid value: "array": ports must be between 1 and 65535, got 2 outside',
      'spec.ratio: Invalid value: "number": failed rule: self <= 1.0',
      'spec: Invalid value: "object": minReplicas must not exceed maxReplicas',
    ]);
    assert.match(body.message, /^Widget\.rules\.example\.com "bad" is invalid: \[/);
    assert.equal((await call(sim.server, 'GET', `${WIDGETS_PATH}/bad`)).status, 404);
  });

  it('does not run the rules while the object has values of the wrong type, size or shape', async () => {
    const r = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('bad-types', { ...GOOD_SPEC, minReplicas: 'five', containers: [{ image: 'x' }] }) });
    assert.equal(r.status, 422, r.body);
    assert.deepEqual(causesOf(r.json()), [
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      'spec.containers[0].name: Required value',
      'spec.minReplicas: Invalid value: "string": spec.minReplicas in body must be of type integer: "string"',
    ]);
  });

  it('evaluates rules after defaulting: integer fields are CEL ints', async () => {
    // maxReplicas defaults to 3: minReplicas 4 then fails the rule that compares them.
    const r = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-defaulted', { ...GOOD_SPEC, minReplicas: 4, maxReplicas: undefined }) });
    assert.equal(r.status, 422, r.body);
    assert.deepEqual(causesOf(r.json()), ['spec: Invalid value: "object": minReplicas must not exceed maxReplicas']);
  });

  it('skips transition rules on create and enforces them on update (self == oldSelf keeps a field immutable)', async () => {
    const created = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-immutable', GOOD_SPEC) });
    assert.equal(created.status, 201, created.body);
    const changed = { ...created.json(), spec: { ...GOOD_SPEC, mode: 'slow', containers: [{ name: 'main', image: 'nginx:1.26' }, { name: 'extra', image: 'redis:7' }] } };
    const r = await call(sim.server, 'PUT', `${WIDGETS_PATH}/w-immutable`, { body: changed });
    assert.equal(r.status, 422, r.body);
    // The new container has no old counterpart (list-type=map items correlate by name): its transition rule is skipped.
    assert.deepEqual(causesOf(r.json()), [
      'spec.containers[0]: Invalid value: "object": the main image is fixed',
      'spec.mode: Invalid value: "string": Value is immutable',
    ]);
    const sameMode = await call(sim.server, 'PUT', `${WIDGETS_PATH}/w-immutable`, { body: { ...created.json(), spec: { ...GOOD_SPEC, maxReplicas: 4 } } });
    assert.equal(sameMode.status, 200, sameMode.body);
  });

  it('a field first set on update has no old value: its transition rule is skipped', async () => {
    const { mode: _mode, ...withoutMode } = GOOD_SPEC;
    const created = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-late', withoutMode) });
    assert.equal(created.status, 201, created.body);
    const r = await call(sim.server, 'PUT', `${WIDGETS_PATH}/w-late`, { body: { ...created.json(), spec: { ...withoutMode, mode: 'slow' } } });
    assert.equal(r.status, 200, r.body);
  });

  it('checks the status rules on the /status subresource', async () => {
    const created = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-status', GOOD_SPEC) });
    const r = await call(sim.server, 'PUT', `${WIDGETS_PATH}/w-status/status`, { body: { ...created.json(), status: { ready: -1 } } });
    assert.equal(r.status, 422, r.body);
    assert.deepEqual(causesOf(r.json()), ['status: Invalid value: "object": ready must not be negative']);
    const ok = await call(sim.server, 'PUT', `${WIDGETS_PATH}/w-status/status`, { body: { ...created.json(), status: { ready: 2 } } });
    assert.equal(ok.status, 200, ok.body);
  });

  it('checks rules on server-side apply and on patches', async () => {
    const apply = await call(sim.server, 'PATCH', `${WIDGETS_PATH}/w-applied?fieldManager=test`, {
      body: widget('w-applied', { ...GOOD_SPEC, minReplicas: 9 }), contentType: 'application/apply-patch+yaml',
    });
    assert.equal(apply.status, 422, apply.body);
    assert.deepEqual(causesOf(apply.json()), ['spec: Invalid value: "object": minReplicas must not exceed maxReplicas']);
    const applied = await call(sim.server, 'PATCH', `${WIDGETS_PATH}/w-applied?fieldManager=test`, { body: widget('w-applied', GOOD_SPEC), contentType: 'application/apply-patch+yaml' });
    assert.equal(applied.status, 201, applied.body);
    const patch = await call(sim.server, 'PATCH', `${WIDGETS_PATH}/w-applied`, { body: { spec: { mode: 'other' } }, contentType: 'application/merge-patch+json' });
    assert.equal(patch.status, 422, patch.body);
    assert.deepEqual(causesOf(patch.json()), ['spec.mode: Invalid value: "string": Value is immutable']);
  });

  it('types strings by their format (timestamps, durations) and has the Kubernetes libraries (urls, lists, strings)', async () => {
    const fine = { ...GOOD_SPEC, notBefore: '2024-05-01T10:00:00Z', timeout: '30m', endpoint: 'https://example.com/hook', hosts: ['a.example', 'b.example'], weights: [60, 40] };
    const ok = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-typed', fine) });
    assert.equal(ok.status, 201, ok.body);
    const bad = { ...GOOD_SPEC, notBefore: '2019-12-31T23:59:59Z', timeout: '2h', endpoint: 'http://example.com', hosts: ['b.example', 'A.example'], weights: [60, 30] };
    const r = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-typed-bad', bad) });
    assert.equal(r.status, 422, r.body);
    assert.deepEqual(causesOf(r.json()), [
      'spec.endpoint: Invalid value: "string": must be an https URL',
      'spec.hosts: Invalid value: "array": sorted, lower case',
      'spec.notBefore: Invalid value: "string": must not be before 2020',
      'spec.timeout: Invalid value: "string": at most an hour',
      'spec.weights: Invalid value: "array": weights add up to 90',
    ]);
  });

  it('reports a rule that fails at run time with the error and the rule', async () => {
    // The item rule reads self.image, which this container does not have.
    const r = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-runtime', { ...GOOD_SPEC, containers: [{ name: 'main' }] }) });
    assert.equal(r.status, 422, r.body);
    assert.deepEqual(causesOf(r.json()), [
      'spec.containers[0]: Invalid value: "object": no such key: image evaluating rule: image needs a tag',
    ]);
  });
});

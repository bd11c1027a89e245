// A hostile validation rule never hangs the simulated cluster: rules run in a worker thread with
// a time budget per request; past it the request is refused naming the rule, and the next
// request is served by a fresh worker.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { CRDS } from '../openapi/crdFixtures.ts';
import { GOOD_SPEC, widget, widgetCrd, WIDGETS_PATH } from './ruleFixtures.ts';

const sim = suiteServer();
// Backtracks exponentially in a JavaScript regex engine (RE2, which kube-apiserver uses, does not).
const HOSTILE = "self.matches('^(a+)+$')";

describe('a validation rule that runs too long', () => {
  before(() => {
    sim.cluster.create(CRDS, '', widgetCrd({ tag: { type: 'string', maxLength: 64, 'x-kubernetes-validations': [{ rule: HOSTILE }] } }));
  });

  it('is stopped within the budget and named in the 422; the next request is served', async () => {
    const started = performance.now();
    const r = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-hostile', { ...GOOD_SPEC, tag: `${'a'.repeat(40)}!` }) });
    const elapsed = performance.now() - started;
    assert.equal(r.status, 422, r.body);
    assert.deepEqual(r.json().details.causes, [
      { reason: 'FieldValueInvalid', field: 'spec.tag', message: `Invalid value: "string": call cost exceeds limit for rule: ${HOSTILE}` },
    ]);
    // Generous: the budget is one second; a hung evaluator would never answer.
    assert.ok(elapsed < 20_000, `answered after ${elapsed} ms`);
    const next = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-fine', { ...GOOD_SPEC, tag: 'aaa' }) });
    assert.equal(next.status, 201, next.body);
    const other = await call(sim.server, 'POST', WIDGETS_PATH, { body: widget('w-other', { ...GOOD_SPEC, minReplicas: 7 }) });
    assert.equal(other.status, 422, other.body);
  });
});

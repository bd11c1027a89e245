import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jitterSeed } from '../../../../src/check/run/jitterSeed.ts';
import { encodePlan, parsePlan } from '../../../../src/check/plans/planCodec.ts';
import type { Plan } from '../../../../src/check/plans/plan.ts';

const relist: Plan = { kind: 'relist-across-changes', change: { kind: 'Service', namespace: 'default', name: 'api', occurrence: 2 }, changes: 1 };

test('a replay draws the jitter its run drew: the plan read back from --plan, with its keys in another order, gives the same seed', () => {
  const typed = parsePlan('{"changes":1,"change":{"occurrence":2,"name":"api","namespace":"default","kind":"Service"},"kind":"relist-across-changes"}');
  assert.equal(jitterSeed(typed, 1), jitterSeed(relist, 1));
  assert.equal(jitterSeed(parsePlan(encodePlan(relist)), 2), jitterSeed(relist, 2));
});

test('each plan, and each start of the controller in a run, draws its own jitter', () => {
  const other: Plan = { ...relist, change: { ...relist.change, occurrence: 3 } };
  assert.notEqual(jitterSeed(other, 1), jitterSeed(relist, 1));
  assert.notEqual(jitterSeed(relist, 2), jitterSeed(relist, 1));
});

test("a write point's request (patch, apply) names it for a person only: with or without it, one seed", () => {
  const patched: Plan = { kind: 'crash-after-write', write: { verb: 'update', kind: 'ConfigMap', namespace: 'default', name: 'web', occurrence: 1, request: 'patch' } };
  const typed = parsePlan('{"kind":"crash-after-write","write":{"verb":"update","kind":"ConfigMap","namespace":"default","name":"web","occurrence":1}}');
  assert.equal(jitterSeed(typed, 1), jitterSeed(patched, 1));
});

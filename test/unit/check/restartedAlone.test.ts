import { test } from 'node:test';
import assert from 'node:assert/strict';
import { restartedAlone } from '../../../src/check/checkController.ts';
import type { Finding } from '../../../src/check/findings/finding.ts';
import { writeLabel, type Plan, type WritePoint } from '../../../src/check/plans/plan.ts';

// A restart against an old cache is a crash and a stale cache at once: what the crash alone did at
// the same write is the crash's finding (intermediate-state), not a second, stale-state one.

const write: WritePoint = { verb: 'update', kind: 'Namespace', namespace: '', name: 'sandbox', occurrence: 1 };
const restart: Plan = { kind: 'stale-restart-after-write', write, lagMs: 1500 };

function finding(cls: Finding['class'], plan: Plan, objects: Finding['objects']): Finding {
  return { class: cls, summary: '', plan, perturbation: '', diff: JSON.stringify(objects), objects, reconciles: [], replay: '' };
}

const missing: Finding['objects'] = [{ id: 'ConfigMap sandbox/team-info', change: 'missing' }];

test('a stale restart that ends as the crash at the same write did is the crash finding', () => {
  const crash = finding('intermediate-state', { kind: 'crash-after-write', write }, missing);
  const crashes = new Map([[writeLabel(write), crash]]);
  assert.equal(restartedAlone(restart, finding('stale-state', restart, missing), crashes), crash);
});

test('a stale restart that ends otherwise, or whose crash found nothing or was not run, is its own finding', () => {
  const crash = finding('intermediate-state', { kind: 'crash-after-write', write }, missing);
  const other = finding('stale-state', restart, [{ id: 'apps/Deployment default/web-* #2', change: 'extra' }]);
  assert.equal(restartedAlone(restart, other, new Map([[writeLabel(write), crash]])), undefined);
  assert.equal(restartedAlone(restart, other, new Map([[writeLabel(write), undefined]])), undefined);
  assert.equal(restartedAlone(restart, other, new Map()), undefined);
  assert.equal(restartedAlone({ kind: 'stale-after-write', write, lagMs: 1500 }, finding('stale-state', restart, missing), new Map([[writeLabel(write), crash]])), undefined);
});

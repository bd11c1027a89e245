import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventHoverText, spanHoverText } from '../../../webview/timeline/hoverText.ts';
import { laneLabel } from '../../../webview/timeline/laneLabel.ts';

// What the timeline's markers and reconcile bars say under the pointer, and the lane of a
// controller's perturbations.

test('a perturbation marker says what was done; a watch event names its object and RV', () => {
  const base = { seq: 1, at: 1, cluster: 'child-maker cache' };
  assert.equal(
    eventHoverText({ ...base, informer: 'controller:child-maker/perturbations', resource: 'perturbations', namespace: '', name: '', type: 'PERTURBATION', resourceVersion: '146', note: 'killed right after `create ConfigMap default/web-*`, then restarted' }),
    'killed right after `create ConfigMap default/web-*`, then restarted\nPerturbation · controller:child-maker/perturbations · rv 146',
  );
  assert.equal(eventHoverText({ ...base, informer: 'i', resource: 'configmaps', kind: 'ConfigMap', namespace: 'default', name: 'web', type: 'MODIFIED', resourceVersion: '147' }), 'MODIFIED ConfigMap default/web · rv 147');
});

test('a reconcile with stale reads lists them under its title', () => {
  const span = { id: 'r', seq: 7, controller: 'c', kind: 'ConfigMap', key: 'default/web', startedAt: 1, endedAt: 2, outcome: 'success' as const, detail: 'done', triggers: [], writes: [] };
  assert.equal(spanHoverText(span), 'reconcile #7 ConfigMap default/web · success · done');
  assert.equal(spanHoverText({ ...span, warnings: ['warning: stale read: ConfigMap default/web at rv 11, older than rv 12 this controller wrote (update in #6)'] }), 'reconcile #7 ConfigMap default/web · success · done\nwarning: stale read: ConfigMap default/web at rv 11, older than rv 12 this controller wrote (update in #6)');
});

test("a controller's perturbations have a lane marked ⚡, not an informer's ⟳", () => {
  const lane = { kind: undefined, namespace: '', name: '', cluster: 'c cache', isInformerLane: true };
  assert.deepEqual(laneLabel({ ...lane, resource: 'perturbations', informer: 'controller:c/perturbations' }, false), { prefix: '⚡ ', name: 'perturbations', suffix: '' });
  assert.deepEqual(laneLabel({ ...lane, resource: 'configmaps', informer: 'controller:c/configmaps' }, false), { prefix: '⟳ ', name: 'configmaps', suffix: '' });
});

test('a miss says which controller enqueued nothing, and why, above the event it rings', () => {
  const miss = { seq: 2, at: 1, cluster: 'app-config cache', informer: 'controller:app-config/deployments.apps', resource: 'deployments.apps', kind: 'Deployment', namespace: 'default', name: 'web', type: 'MISSED' as const, resourceVersion: '149', note: 'app-config enqueued nothing: filtered by GenerationChangedPredicate (For)' };
  assert.equal(eventHoverText(miss), 'app-config enqueued nothing: filtered by GenerationChangedPredicate (For)\nMISSED Deployment default/web · rv 149');
});

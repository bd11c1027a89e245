import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kindOfTimelineResource, whyReport } from '../../../src/vscode/controllers/whyReport.ts';
import type { WhyTarget } from '../../../src/runtime/index.ts';

// "Why (Not)?" from VS Code: every running controller session answers; with none running, the
// answer says what to do rather than nothing.

test('each running session answers, one after the other', () => {
  const asked: WhyTarget[] = [];
  const session = (controller: string) => ({
    why: (target: WhyTarget) => {
      asked.push(target);
      return { target, changes: [{ controllers: [{ controller, verdict: 'not reconciled' as const, steps: [{ step: 'Watched', answer: `no, ${controller} does not watch Pod at all (For Deployment)` }] }] }] };
    },
  });
  const text = whyReport([session('a'), session('b')], { kind: 'Pod', key: 'default/web-1', resourceVersion: '9' });
  assert.equal(text, [
    'Why (not)? Pod default/web-1',
    '  a: not reconciled',
    '    Watched? no, a does not watch Pod at all (For Deployment)',
    '',
    'Why (not)? Pod default/web-1',
    '  b: not reconciled',
    '    Watched? no, b does not watch Pod at all (For Deployment)',
  ].join('\n'));
  assert.deepEqual(asked.map((t) => t.resourceVersion), ['9', '9']);
});

test('with no controller running, it says so and what to do', () => {
  assert.equal(whyReport([], { kind: 'Pod', key: 'default/web-1', resourceVersion: '9' }), 'Why (not)? Pod default/web-1 at rv 9\n  No controller is running, so nothing recorded what became of its events: run or debug a controller, then ask again.');
});

test('a timeline resource names its kind (matched without regard to case)', () => {
  assert.equal(kindOfTimelineResource('deployments.apps'), 'deployment');
  assert.equal(kindOfTimelineResource('ingresses.networking.k8s.io'), 'ingress');
  assert.equal(kindOfTimelineResource('networkpolicies.networking.k8s.io'), 'networkpolicy');
  assert.equal(kindOfTimelineResource('configmaps'), 'configmap');
});

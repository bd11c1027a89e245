import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeFinding, type Finding } from '../../../../src/check/findings/finding.ts';

// A finding's paragraph, as the terminal shows it.

const finding = (kind: string, resourceVersion: string | null): Finding => ({
  class: 'unobserved-state',
  summary: 'change #1 of ConfigMap default/rack delivered only together with the next change of it: …',
  plan: { kind: 'coalesce-change', change: { kind: 'ConfigMap', namespace: 'default', name: 'rack', occurrence: 1 } },
  perturbation: 'change #1 of ConfigMap default/rack delivered only together with the next change of it',
  diff: '+ ConfigMap default/rack-node-2 (not expected)',
  objects: [],
  reconciles: [{ seq: 9, incarnation: 1, controller: 'decommissioner', key: 'default/rack', trigger: 'MODIFIED ConfigMap default/rack rv 149', read: { kind, key: 'default/rack', resourceVersion }, cacheResourceVersion: '149', writes: [] }],
  replay: 'controller-lab check ./cmd --scenario s.yaml --plan …',
});

test('a reconcile of a controller built without For says its key, not a read of no kind "not in cache"', () => {
  const text = describeFinding(finding('', null), 1);
  assert.match(text, /#9 decommissioner default\/rack: MODIFIED ConfigMap default\/rack rv 149; key default\/rack \(no For kind: what it read is not known\), cache at rv 149/);
  assert.doesNotMatch(text, /read {2}default|not in cache/);
});

test('a reconcile of a For kind says what it read, at which resourceVersion', () => {
  assert.match(describeFinding(finding('ConfigMap', '149'), 1), /; read ConfigMap default\/rack at rv 149, cache at rv 149/);
  assert.match(describeFinding(finding('ConfigMap', null), 1), /; read ConfigMap default\/rack at rv \(not in cache\)/);
});

test('a finding of objects deleted and made again is not headed as an end state that differs', () => {
  const recreated: Finding = { ...finding('ConfigMap', '149'), diff: '~ ConfigMap default/rack-0: deleted and made again twice (the reference runs: at most once)', objects: [{ id: 'ConfigMap default/rack-0', change: 'recreated' }] };
  const text = describeFinding(recreated, 1);
  assert.match(text, /\n {2}deleted and made again, against the reference runs:\n {4}~ ConfigMap default\/rack-0: deleted and made again twice/);
  assert.doesNotMatch(text, /end state against/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BreakpointSet, parseHitCondition, type BreakpointTarget } from '../../../src/debug/breakpoints.ts';

function target(kind: string, key: string, extra: Partial<BreakpointTarget> = {}): BreakpointTarget {
  const slash = key.indexOf('/');
  return {
    kind,
    key,
    request: { namespace: slash < 0 ? '' : key.slice(0, slash), name: key.slice(slash + 1) },
    object: { metadata: { name: key.slice(slash + 1), namespace: key.slice(0, slash) }, spec: { replicas: 3 } },
    trigger: [],
    ...extra,
  };
}

test('a kind breakpoint stops on every reconcile of that kind, case-insensitively', () => {
  const s = new BreakpointSet();
  s.set([{ name: 'deployment' }]);
  assert.equal(s.evaluate(target('Deployment', 'default/web')).action, 'stop');
  assert.equal(s.evaluate(target('ReplicaSet', 'default/web')).action, 'none');
});

test('namespace/name and globs narrow the match', () => {
  const s = new BreakpointSet();
  s.set([{ name: 'Deployment default/web-*' }]);
  assert.equal(s.evaluate(target('Deployment', 'default/web-1')).action, 'stop');
  assert.equal(s.evaluate(target('Deployment', 'default/api')).action, 'none');
  assert.equal(s.evaluate(target('Deployment', 'other/web-1')).action, 'none');
  s.set([{ name: 'Deployment web' }]);
  assert.equal(s.evaluate(target('Deployment', 'any/web')).action, 'stop');
  assert.equal(s.evaluate(target('Deployment', 'any/web2')).action, 'none');
});

test('a breakpoint on a triggering object matches the reconcile it caused', () => {
  const s = new BreakpointSet();
  s.set([{ name: 'Pod default/web-abc' }]);
  const t = target('ReplicaSet', 'default/web', {
    trigger: [{ type: 'DELETED', kind: 'Pod', apiVersion: 'v1', key: 'default/web-abc', resourceVersion: '7', via: 'owns', at: 0 }],
  });
  assert.equal(s.evaluate(t).action, 'stop');
});

test('conditions see obj and req; a failing condition does not stop and is reported', () => {
  const s = new BreakpointSet();
  s.set([{ name: 'Deployment', condition: 'obj.spec.replicas > 2 && req.name === "web"' }]);
  assert.equal(s.evaluate(target('Deployment', 'default/web')).action, 'stop');
  assert.equal(s.evaluate(target('Deployment', 'default/api')).action, 'none');
  s.set([{ name: 'Deployment', condition: 'obj.nope.deeper' }]);
  const logs: string[] = [];
  assert.equal(s.evaluate(target('Deployment', 'default/web'), (_bp, m) => logs.push(m)).action, 'none');
  assert.match(logs[0] ?? '', /condition failed/);
  // Which breakpoint, which reconcile, and that the object is gone when obj is undefined.
  s.set([{ name: 'Deployment default/web', condition: 'obj.spec.replicas > 2' }]);
  s.evaluate(target('Deployment', 'default/web', { object: undefined, seq: 7 }), (_bp, m) => logs.push(m));
  assert.equal(
    logs[1],
    'breakpoint "Deployment default/web" condition failed on reconcile Deployment default/web #7 (obj is undefined: the object is gone): Cannot read properties of undefined (reading \'spec\')',
  );
});

test('hit counts count matching reconciles', () => {
  const s = new BreakpointSet();
  s.set([{ name: 'Deployment', hitCondition: '3' }]);
  const results = [1, 2, 3, 4].map(() => s.evaluate(target('Deployment', 'default/web')).action);
  assert.deepEqual(results, ['none', 'none', 'stop', 'stop']);
  assert.equal(parseHitCondition('%2')(4), true);
  assert.equal(parseHitCondition('%2')(3), false);
  assert.equal(parseHitCondition('==2')(3), false);
  assert.throws(() => parseHitCondition('often'));
});

test('logpoints interpolate expressions and never stop', () => {
  const s = new BreakpointSet();
  s.set([{ name: 'Deployment', logMessage: 'replicas={obj.spec.replicas} for {req.name}' }]);
  const v = s.evaluate(target('Deployment', 'default/web'));
  assert.equal(v.action, 'log');
  assert.equal(v.action === 'log' && v.message, 'replicas=3 for web');
});

test('a malformed breakpoint is reported unverified with a reason', () => {
  const s = new BreakpointSet();
  const [bp] = s.set([{ name: 'Deployment default/web extra' }]);
  assert.equal(bp?.verified, false);
  assert.ok(bp?.message);
  const [bad] = s.set([{ name: 'Deployment', condition: 'obj.(' }]);
  assert.equal(bad?.verified, false);
});

test('looking back, a hit condition is checked against the count each reconcile had, and nothing is counted again', () => {
  const s = new BreakpointSet();
  s.set([{ name: 'Deployment', hitCondition: '2' }]);
  const at = (seq: number) => ({ ...target('Deployment', 'default/web'), seq });
  assert.deepEqual([1, 2, 3].map((seq) => s.evaluate(at(seq)).action), ['none', 'stop', 'stop']);
  // The first hit never stopped, however often one looks back at it.
  assert.deepEqual([2, 1, 1].map((seq) => s.recall(at(seq)).action), ['stop', 'none', 'none']);
  assert.equal(s.list()[0]?.hits, 3);
  // Reconciles from before the breakpoint was set were never counted: the hit condition is left out.
  s.set([{ name: 'Deployment', hitCondition: '==5' }]);
  assert.equal(s.recall(at(1)).action, 'stop');
});

test('a breakpoint on a kind no controller reconciles or watches says so once the controllers are known; one on a watched kind stays', () => {
  const set = new BreakpointSet();
  const [typo, owned, glob] = set.set([{ name: 'Deploymnet default/web' }, { name: 'Pod default/web-1' }, { name: 'Replica* default/web' }]);
  assert.deepEqual([typo!.verified, owned!.verified, glob!.verified], [true, true, true], 'nothing is known of the kinds yet');
  const changed = set.learnController('replicaset', ['ReplicaSet', 'Pod']);
  assert.deepEqual(changed.map((b) => b.spec.name), ['Deploymnet default/web']);
  assert.equal(typo!.verified, false);
  assert.match(typo!.message ?? '', /No controller here reconciles or watches a kind named like "Deploymnet" \(replicaset reconciles or watches ReplicaSet, Pod\)/);
  assert.equal(set.learnController('replicaset', ['ReplicaSet', 'Pod']).length, 0, 'told once');
  // Set again once the kinds are known: the answer says it at once.
  const [again] = set.set([{ name: 'Deploymnet' }]);
  assert.equal(again!.verified, false);
});

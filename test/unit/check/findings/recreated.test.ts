import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mostRemade, recreatedFinding } from '../../../../src/check/findings/recreated.ts';
import { symptomsOf } from '../../../../src/check/findings/symptoms.ts';
import { Oracle } from '../../../../src/check/oracle/index.ts';
import type { CommittedWrite } from '../../../../src/check/run/controllerWrites.ts';
import type { RunResult } from '../../../../src/check/run/checkRun.ts';

// A controller that deletes a member from a stale view and makes it again ends as the reference
// did but for the member's uid, which the end state's comparison sets aside: a Pod restarted, its
// data lost, for nothing. The run's deletions, against the reference runs' own, tell.

const member = (uid: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-0', namespace: 'default', uid } });

function write(verb: CommittedWrite['verb'], uid: string, rv: number): CommittedWrite {
  return { verb, kind: 'ConfigMap', group: '', resource: 'configmaps', namespace: 'default', name: 'web-0', pointName: 'web-0', resourceVersion: String(rv), object: member(uid), byController: true, atMs: rv };
}

/** A run whose controller made web-0 (`old`), then, at rv 20, the perturbation struck; `after` its writes since. */
function run(after: CommittedWrite[], endUid: string): RunResult {
  const writes = [write('create', 'old', 10), ...after];
  return { endState: [member(endUid)], writes, reconciles: [], applied: [{ what: 'withheld', resourceVersion: '20', atMs: 0 }] } as unknown as RunResult;
}

const plan = { kind: 'stale-after-write', write: { verb: 'create', kind: 'ConfigMap', namespace: 'default', name: 'web-0', occurrence: 2 }, lagMs: 1500 } as const;
const oracle = Oracle.learn([[member('a')], [member('b')]]);
/** The reference runs remade web-0 once (a rollout): deleted the old one, made the new one. */
const reference = mostRemade([[write('create', 'old', 10), write('delete', 'old', 30), write('create', 'new', 31)]]);

test('a member deleted and made again once more than in the reference runs is a finding, though the end state matches', () => {
  const r = run([write('delete', 'old', 30), write('create', 'new', 31), write('delete', 'new', 32), write('create', 'newer', 33)], 'newer');
  assert.deepEqual(oracle.judge(r.endState), [], 'the end state alone shows nothing');
  const f = recreatedFinding(plan, r, 'replay', reference);
  assert.ok(f, 'a finding');
  assert.equal(f.class, 'stale-state');
  assert.match(f.summary, /the controller deleted ConfigMap default\/web-0 and made it again, once more than the reference runs did/);
  assert.equal(f.diff, '~ ConfigMap default/web-0: deleted and made again twice (the reference runs: at most once)');
  assert.deepEqual([...symptomsOf(f)], ['recreated ConfigMap default/web-0']);
});

test("a Pod the controller deleted, made again by the cluster's own controller (a StatefulSet's), counts; the scenario's create does not", () => {
  const byCluster = { ...write('create', 'new', 33), byController: false, writer: 'kube-controller-manager' };
  const r = run([write('delete', 'old', 30), write('create', 'new', 31), write('delete', 'new', 32), byCluster], 'new');
  assert.ok(recreatedFinding(plan, r, 'replay', reference), 'made again by the cluster');
  const byScenario = { ...byCluster, writer: 'controller-lab/scenario' };
  const s = run([write('delete', 'old', 30), write('create', 'new', 31), write('delete', 'new', 32), byScenario], 'new');
  assert.equal(recreatedFinding(plan, s, 'replay', reference), undefined, 'made again by the user');
});

test('children of generated names, a surplus removed and others made later, are not told apart: no finding', () => {
  const child = (verb: CommittedWrite['verb'], uid: string, rv: number): CommittedWrite => ({ ...write(verb, uid, rv), name: `pool-${uid}`, pointName: 'pool-*' });
  const r = run([child('create', 'extra', 30), child('delete', 'extra', 31), child('create', 'scaled', 32)], 'old');
  assert.equal(recreatedFinding(plan, r, 'replay', new Map()), undefined);
});

test('as many deletions as the reference runs made (a rollout): no finding', () => {
  const r = run([write('delete', 'old', 30), write('create', 'new', 31)], 'new');
  assert.equal(recreatedFinding(plan, r, 'replay', reference), undefined);
});

test('an extra the run made and removed again was not made again: no finding', () => {
  const r = run([write('delete', 'old', 30), write('create', 'new', 31), write('create', 'extra', 32), write('delete', 'extra', 33)], 'new');
  assert.equal(recreatedFinding(plan, r, 'replay', reference), undefined);
});

test('a delete that marks for deletion and the removal a finalizer held back are one deletion', () => {
  const r = run([write('delete', 'old', 30), write('delete', 'old', 31), write('create', 'new', 32)], 'new');
  assert.equal(recreatedFinding(plan, r, 'replay', reference), undefined);
});

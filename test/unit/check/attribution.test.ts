import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attribute } from '../../../src/check/findings/attribution.ts';
import { symptomsOf } from '../../../src/check/findings/symptoms.ts';
import type { Finding } from '../../../src/check/findings/finding.ts';
import { CLASS_OF, type Plan, type WritePoint } from '../../../src/check/plans/plan.ts';

// One bug, one finding: runs that end with the same symptoms are one finding, with the class of
// the simplest perturbation among them and the others listed in it; a symptom nothing simpler
// showed keeps its own finding.

const create: WritePoint = { verb: 'create', kind: 'ConfigMap', namespace: 'default', name: 'alpha-*', occurrence: 1 };
const update: WritePoint = { verb: 'update', kind: 'ConfigMap', namespace: 'default', name: 'alpha', occurrence: 1 };
const change = { kind: 'ConfigMap', namespace: 'default', name: 'release', occurrence: 1 };

const crash = (write = create): Plan => ({ kind: 'crash-after-write', write });
const stale = (write = create): Plan => ({ kind: 'stale-after-write', write, lagMs: 1500 });
const staleRestart = (write = create): Plan => ({ kind: 'stale-restart-after-write', write, lagMs: 1500 });
const relist: Plan = { kind: 'relist-across-changes', change, changes: 1 };
const coalesce: Plan = { kind: 'coalesce-change', change };
const resync: Plan = { kind: 'resync-when-quiet' };
const changeCrash: Plan = { kind: 'crash-after-change', change };
const changeStaleRestart: Plan = { kind: 'stale-restart-after-change', change, lagMs: 1500 };

function finding(plan: Plan, objects: Finding['objects'], diff = JSON.stringify(objects)): Finding {
  return { class: CLASS_OF[plan.kind], summary: '', plan, perturbation: plan.kind, diff, objects, reconciles: [], replay: `replay ${plan.kind}` };
}

const child = (parent: string, n: number): Finding['objects'][number] => ({ id: `ConfigMap default/${parent}-* of ConfigMap default/${parent} {check.example.com/parent-name=${parent}} #${n}`, change: 'extra' });
const children = (parent: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => child(parent, from + i));
const recorded = (parent: string, got: number): Finding['objects'][number] => ({
  id: `ConfigMap default/${parent}`,
  change: 'changed',
  fields: [{ path: '.metadata.annotations["check.example.com/child"]', expected: `<${child(parent, 1).id.replace(/ #\d+$/, '')} #1>`, got: `<${child(parent, 1).id.replace(/ #\d+$/, '')} #${got}>` }],
});

test("symptoms name objects without their number among alike ones, and leave out a value that only names another of them", () => {
  assert.deepEqual([...symptomsOf(finding(stale(), [recorded('alpha', 6), ...children('alpha', 2, 4)]))], ['extra ConfigMap default/alpha-*']);
  const history = { id: 'ConfigMap default/release', change: 'changed' as const, fields: [{ path: '.data.history', expected: '1,2,3', got: '1,3' }] };
  assert.deepEqual([...symptomsOf(finding(coalesce, [history]))], ['changed ConfigMap default/release .data.history']);
});

test('a Pod owned by the second of two alike ReplicaSets rather than the first shows no symptom of its own', () => {
  const rs = (n: number) => `<apps/ReplicaSet default/<apps/Deployment default/web-* of cache.example.com/Memcached default/web>-6b8f #${n}>`;
  const ref = (n: number, uid: string) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs(n), uid, controller: true });
  const pod = {
    id: 'Pod default/<apps/ReplicaSet default/<apps/Deployment default/web-* of cache.example.com/Memcached default/web>-6b8f>-* #2',
    change: 'changed' as const,
    fields: [
      { path: '.metadata.generateName', expected: `${rs(1)}-`, got: `${rs(3)}-` },
      { path: `.metadata.ownerReferences[name=${rs(1)}]`, expected: ref(1, 'a1'), got: undefined },
      { path: `.metadata.ownerReferences[name=${rs(3)}]`, expected: undefined, got: ref(3, 'b2') },
    ],
  };
  assert.deepEqual([...symptomsOf(finding(crash(), [pod, { id: 'apps/Deployment default/web-* of cache.example.com/Memcached default/web #2', change: 'extra' }]))], ['extra apps/Deployment default/web-*']);
});

test('a stale cache that ends as a crash did (more children, the parent naming another) is the crash finding, listing the stale runs', () => {
  const runs = [
    finding(crash(), [child('alpha', 2)]),
    finding(stale(), [recorded('alpha', 6), ...children('alpha', 2, 7)]),
    finding(staleRestart(), [child('alpha', 2)]),
  ];
  const { findings, within } = attribute(runs);
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.class, 'intermediate-state');
  assert.deepEqual(findings[0]!.alsoReproducedBy?.map((r) => [r.class, r.plan.kind, r.replay]), [
    ['stale-state', 'stale-after-write', 'replay stale-after-write'],
    ['stale-state', 'stale-restart-after-write', 'replay stale-restart-after-write'],
  ]);
  for (const run of runs) assert.equal(within(run), findings[0]);
});

test('the simplest perturbation explains a finding whichever run came first; the finding keeps its place', () => {
  const runs = [finding(stale(), [...children('beta', 2, 5)]), finding(relist, [child('beta', 2)]), finding(crash(), [child('beta', 2)])];
  const { findings } = attribute(runs);
  assert.equal(findings.length, 1);
  assert.equal(findings[0]!.plan.kind, 'crash-after-write');
  assert.deepEqual(findings[0]!.alsoReproducedBy?.map((r) => r.plan.kind), ['stale-after-write', 'relist-across-changes']);
});

test('a run whose symptoms simpler findings show between them is one of them: the one that shares most', () => {
  const runs = [finding(crash(), [child('alpha', 2)]), finding(crash(update), [child('beta', 2)]), finding(stale(update), [...children('alpha', 2, 3), ...children('beta', 2, 4), recorded('beta', 4)])];
  const { findings } = attribute(runs);
  assert.deepEqual(findings.map((f) => [f.class, f.alsoReproducedBy?.length ?? 0]), [['intermediate-state', 1], ['intermediate-state', 0]]);
});

test('a crash run whose extra objects one start of the controller made alone explains them no better than a stale cache', () => {
  const twice = [{ id: 'apps/Deployment default/web-* of cache.example.com/Memcached default/web #2', change: 'extra' as const }];
  const crashed = { ...finding(crash(update), twice), madeByOneStart: true };
  const { findings } = attribute([crashed, finding(stale(), twice), finding(crash(), twice)]);
  assert.deepEqual(findings.map((f) => [f.class, f.alsoReproducedBy?.map((r) => r.class)]), [['intermediate-state', ['stale-state', 'intermediate-state']]]);
  assert.equal(findings[0]!.plan.kind, 'crash-after-write');
  assert.equal(findings[0]!.madeByOneStart, undefined, 'the crash that made them in two starts explains them');
  const { findings: staleFirst } = attribute([crashed, finding(stale(), twice)]);
  assert.deepEqual(staleFirst.map((f) => [f.class, f.alsoReproducedBy?.map((r) => r.class)]), [['stale-state', ['intermediate-state']]]);
});

test('a symptom no simpler perturbation showed is a finding of its own: two bugs are never one', () => {
  const count = { id: 'ConfigMap default/alpha', change: 'changed' as const, fields: [{ path: '.data.count', expected: '2', got: '3' }] };
  const label = { id: 'ConfigMap default/beta', change: 'changed' as const, fields: [{ path: '.metadata.labels.seen', expected: 'true', got: undefined }] };
  // The stale run also shows the crash's extra child, but its count is its own; the coalesced change shows the count too, and a label besides.
  const runs = [finding(crash(), [child('alpha', 2)]), finding(stale(), [child('alpha', 2), count]), finding(coalesce, [count, label]), finding(relist, [count])];
  const { findings } = attribute(runs);
  assert.deepEqual(findings.map((f) => [f.class, f.alsoReproducedBy?.map((r) => r.plan.kind) ?? []]), [['intermediate-state', []], ['stale-state', ['relist-across-changes']], ['unobserved-state', []]]);
});

test('a write with nothing to do that also leaves other values behind after a crash is not-idempotent', () => {
  const written = { id: 'ConfigMap default/web', change: 'changed' as const, fields: [{ path: '.data.count', expected: '4', got: '5' }] };
  const ended = { id: 'ConfigMap default/web', change: 'changed' as const, fields: [{ path: '.data.count', expected: '4', got: '6' }] };
  const { findings } = attribute([finding(crash(update), [ended]), finding(resync, [written], 'update ConfigMap default/web (.data.count)')]);
  assert.deepEqual(findings.map((f) => [f.class, f.alsoReproducedBy?.map((r) => r.class)]), [['not-idempotent', ['intermediate-state']]]);
});

test('the same writes with nothing to do, in another order, in both reference runs are one finding', () => {
  const a = { id: 'ConfigMap default/web-summary', change: 'changed' as const, fields: [{ path: '.data.syncedAt', expected: 't1', got: 't2' }] };
  const b = { id: 'ConfigMap default/api-summary', change: 'changed' as const, fields: [{ path: '.data.syncedAt', expected: 't1', got: 't3' }] };
  const { findings } = attribute([finding(resync, [a, b], 'web\napi'), finding(resync, [b, a], 'api\nweb')]);
  assert.equal(findings.length, 1);
});

test('findings without symptoms to compare (a controller that never went quiet) are one when class and diff agree', () => {
  const loop = (plan: Plan) => finding(plan, [], 'its queue never emptied');
  const { findings } = attribute([loop(crash()), loop(crash(update)), loop(stale())]);
  assert.deepEqual(findings.map((f) => f.class), ['intermediate-state', 'stale-state']);
});

test('a crash at a change comes after every other perturbation: it keeps only what none of them explains', () => {
  const leaked = { id: 'ConfigMap dns/api.example.com', change: 'extra' as const };
  const runs = [finding(changeCrash, [child('alpha', 2)]), finding(relist, [child('alpha', 2)]), finding(changeCrash, [leaked])];
  const { findings, within } = attribute(runs);
  assert.deepEqual(findings.map((f) => [f.plan.kind, f.class, f.alsoReproducedBy?.map((r) => r.plan.kind) ?? []]), [
    ['relist-across-changes', 'unobserved-state', ['crash-after-change']],
    ['crash-after-change', 'intermediate-state', []],
  ]);
  assert.equal(within(runs[0]!), findings[0]);
});

test('a stale restart at a change comes after the crash at it: it keeps only what acting on the object as it was explains', () => {
  const forgotten = { id: 'ConfigMap dns/api.example.com', change: 'extra' as const };
  const orphaned = { id: 'ConfigMap default/web-data', change: 'missing' as const };
  const runs = [finding(changeStaleRestart, [forgotten]), finding(changeCrash, [forgotten]), finding(changeStaleRestart, [orphaned])];
  const { findings } = attribute(runs);
  assert.deepEqual(findings.map((f) => [f.plan.kind, f.class, f.alsoReproducedBy?.map((r) => r.plan.kind) ?? []]), [
    ['crash-after-change', 'intermediate-state', ['stale-restart-after-change']],
    ['stale-restart-after-change', 'stale-state', []],
  ]);
});

test('one reconcile killed after its second write, then after its first: one finding, led by the run that shows all it left undone', () => {
  const field = (path: string) => ({ path, expected: 'done', got: undefined });
  const afterSecond = finding(crash({ ...update, occurrence: 2 }), [{ id: 'ConfigMap default/alpha', change: 'changed', fields: [field('.data.third')] }]);
  const afterFirst = finding(crash(update), [{ id: 'ConfigMap default/alpha', change: 'changed', fields: [field('.data.second'), field('.data.third')] }]);
  const { findings, within } = attribute([afterSecond, afterFirst]);
  assert.deepEqual(findings.map((f) => [f.plan, f.alsoReproducedBy?.map((r) => r.plan) ?? []]), [[afterFirst.plan, [afterSecond.plan]]]);
  assert.equal(within(afterSecond), findings[0]);
});

test('a crash at a change that ends as the crash after the write did, and a little more: one finding, the simpler crash leading', () => {
  const undone = { id: 'ConfigMap default/alpha', change: 'changed' as const, fields: [{ path: '.data.second', expected: 'done', got: undefined }] };
  const more = { id: 'ConfigMap default/alpha-status', change: 'missing' as const };
  const { findings } = attribute([finding(crash(update), [undone]), finding(changeCrash, [undone, more])]);
  assert.deepEqual(findings.map((f) => [f.plan.kind, f.alsoReproducedBy?.map((r) => r.plan.kind) ?? []]), [['crash-after-write', ['crash-after-change']]]);
});

test('one stale-cache bug under two parents, its objects written by the same lines of the controller: one finding; by other lines: two', () => {
  const under = (parent: string, createdAt: string, patchedAt = 'reconcile.ts:21'): Finding => {
    const extra = { id: `ConfigMap default/${parent}-* of Secret default/${parent} #2`, change: 'extra' as const };
    const count = { id: `Secret default/${parent}`, change: 'changed' as const, fields: [{ path: '.metadata.annotations.children', expected: '1', got: '2' }] };
    return { ...finding(stale({ ...create, name: `${parent}-*` }), [extra, count]), writtenAt: { [extra.id]: createdAt, [count.id]: patchedAt } };
  };
  const shards = under('shards', 'reconcile.ts:15');
  const logs = under('logs', 'reconcile.ts:15');
  const { findings, within } = attribute([shards, logs]);
  assert.deepEqual(findings.map((f) => [f.plan, f.alsoReproducedBy?.map((r) => r.plan) ?? []]), [[shards.plan, [logs.plan]]]);
  assert.equal(within(logs), findings[0]);
  assert.equal(attribute([shards, under('logs', 'reconcile.ts:30')]).findings.length, 2, 'made by another line: another bug');
  assert.equal(attribute([shards, { ...logs, writtenAt: undefined }]).findings.length, 2, 'who wrote them not known: not one');
});

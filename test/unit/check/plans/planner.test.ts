import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { planRuns } from '../../../../src/check/plans/planner.ts';
import { SCENARIO_USER_AGENT } from '../../../../src/sim/index.ts';
import { encodePlan, parsePlan, PlanError } from '../../../../src/check/plans/planCodec.ts';
import { CLASS_OF, describePlan, type Plan } from '../../../../src/check/plans/plan.ts';
import type { CommittedWrite } from '../../../../src/check/run/controllerWrites.ts';

// The plans a reference run yields: a crash and two stale caches after each write of the
// controller's, a coalesced change and a relist at each change that another follows, a crash at
// each change by someone else; writes alike taken in turn so a short budget still covers every
// kind of write, and every class early on.

const object = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });

function write(byController: boolean, verb: CommittedWrite['verb'], name: string, occurrence: number, changeOccurrence?: number): CommittedWrite {
  const w: CommittedWrite = { verb, kind: 'ConfigMap', group: '', resource: 'configmaps', namespace: 'default', name, pointName: name, resourceVersion: '1', object: object(name), byController, atMs: 0 };
  if (byController) w.point = { verb, kind: 'ConfigMap', namespace: 'default', name, occurrence };
  if (changeOccurrence !== undefined) w.change = { kind: 'ConfigMap', namespace: 'default', name, occurrence: changeOccurrence };
  return w;
}

test('every write of the controller gets a crash, a stale cache and a stale restart; a change another change follows gets a coalescing and a relist', () => {
  const plans = planRuns({
    watched: new Set(['configmaps']),
    writes: [
      write(false, 'create', 'parent', 0),
      write(true, 'create', 'child-a', 1),
      write(false, 'update', 'parent', 0, 1),
      write(true, 'update', 'parent', 1, 2),
      write(false, 'update', 'parent', 0, 3),
    ],
  });
  const kinds = plans.map((p) => p.kind);
  assert.equal(kinds.filter((k) => k === 'crash-after-write').length, 2);
  assert.equal(kinds.filter((k) => k === 'stale-after-write').length, 2);
  assert.equal(kinds.filter((k) => k === 'stale-restart-after-write').length, 2);
  // Changes #1 and #2 of the parent are followed by another; #3 is the last.
  assert.deepEqual(plans.filter((p) => p.kind === 'coalesce-change').map((p) => p.kind === 'coalesce-change' && p.change.occurrence), [1, 2]);
  assert.equal(kinds.filter((k) => k === 'relist-across-changes').length, 2);
  // Every class comes within the first five plans.
  assert.deepEqual(new Set(kinds.slice(0, 5)), new Set(['crash-after-write', 'stale-after-write', 'coalesce-change', 'stale-restart-after-write', 'relist-across-changes']));
});

test('writes alike are taken in turn: the first write of each kind before the second of any', () => {
  const plans = planRuns({ writes: [write(true, 'create', 'a', 1), write(true, 'create', 'b', 1), write(true, 'delete', 'a', 1)], watched: new Set() }).filter((p) => p.kind === 'crash-after-write');
  assert.deepEqual(plans.map((p) => p.kind === 'crash-after-write' && `${p.write.verb} ${p.write.name}`), ['create a', 'delete a', 'create b']);
});

test('a plan goes through the command line as JSON and back; a wrong one is one clear line', () => {
  const plan = planRuns({ writes: [write(true, 'create', 'a', 1)], watched: new Set() })[0]!;
  assert.deepEqual(parsePlan(encodePlan(plan)), plan);
  assert.throws(() => parsePlan('{"kind":"crash-after-write"}'), (err: Error) => err instanceof PlanError && err.message === 'write must be an object');
  assert.throws(() => parsePlan('{"kind":"explode"}'), /plan kind must be one of crash-after-write, stale-after-write/);
  assert.throws(() => parsePlan('not json'), /a plan is JSON/);
});

// Coalesce and relist plans only for what the controller watched in the reference run.

function changeOf(resource: string, group: string, kind: string, name: string, occurrence: number, byController = false): CommittedWrite {
  const object = { apiVersion: group ? `${group}/v1` : 'v1', kind, metadata: { name, namespace: 'default' } } as KubeObject;
  const w: CommittedWrite = { verb: 'update', kind: group ? `${group}/${kind}` : kind, group, resource, namespace: 'default', name, pointName: name, resourceVersion: String(occurrence), object, byController, change: { kind: group ? `${group}/${kind}` : kind, namespace: 'default', name, occurrence }, atMs: occurrence };
  if (byController) w.point = { verb: 'update', kind: w.kind, namespace: 'default', name, occurrence };
  return w;
}

test('a change followed by another of the same object is a coalesce and a relist plan, only where the controller watches it', () => {
  const writes = [changeOf('deployments', 'apps', 'Deployment', 'web', 1), changeOf('deployments', 'apps', 'Deployment', 'web', 2), changeOf('pods', '', 'Pod', 'web-1', 1), changeOf('pods', '', 'Pod', 'web-1', 2)];
  const plans = planRuns({ writes, watched: new Set(['deployments.apps']) });
  assert.deepEqual(plans.map((p) => `${p.kind} ${'change' in p ? `${p.change.kind} ${p.change.name} #${p.change.occurrence}` : ''}`), [
    'coalesce-change apps/Deployment web #1',
    'relist-across-changes apps/Deployment web #1',
    'crash-after-change apps/Deployment web #1',
    'stale-restart-after-change apps/Deployment web #1',
    'crash-after-change apps/Deployment web #2',
    'stale-restart-after-change apps/Deployment web #2',
  ]);
});

test("every change by someone else of what the controller watches, the last one too, is a crash before it reconciles it; its own changes are not", () => {
  const writes = [changeOf('configmaps', '', 'ConfigMap', 'a', 1), changeOf('configmaps', '', 'ConfigMap', 'a', 2, true), changeOf('configmaps', '', 'ConfigMap', 'a', 3), changeOf('pods', '', 'Pod', 'p', 1)];
  const crashes = planRuns({ writes, watched: new Set(['configmaps']) }).filter((p) => p.kind === 'crash-after-change');
  assert.deepEqual(crashes.map((p) => `${p.change.kind} ${p.change.name} #${p.change.occurrence}`), ['ConfigMap a #1', 'ConfigMap a #3']);
  // Last of all, so every simpler class runs first on a short budget; each crash has its stale twin.
  assert.deepEqual(planRuns({ writes, watched: new Set(['configmaps']) }).slice(-2).map((p) => p.kind), ['crash-after-change', 'stale-restart-after-change']);
});

test('a stale restart at a change is planned at every change by someone else a crash is, and goes through the command line and back', () => {
  const writes = [changeOf('configmaps', '', 'ConfigMap', 'a', 1), changeOf('configmaps', '', 'ConfigMap', 'a', 2, true), changeOf('configmaps', '', 'ConfigMap', 'a', 3)];
  const stale = planRuns({ writes, watched: new Set(['configmaps']) }).filter((p) => p.kind === 'stale-restart-after-change');
  assert.deepEqual(stale.map((p) => `${p.change.name} #${p.change.occurrence} ${p.lagMs}`), ['a #1 1500', 'a #3 1500']);
  const plan = stale[0]!;
  assert.deepEqual(parsePlan(encodePlan(plan)), plan);
  assert.equal(describePlan(plan), 'killed right after change #1 of ConfigMap default/a and restarted against a cache from before that change, which caught up once it had acted on it (at most 1500 ms)');
  assert.equal(CLASS_OF[plan.kind], 'stale-state');
});

test('a crash at a change goes through the command line as JSON and back, and says what was done', () => {
  const plan: Plan = { kind: 'crash-after-change', change: { kind: 'Service', namespace: 'default', name: 'api', occurrence: 4 } };
  assert.deepEqual(parsePlan(encodePlan(plan)), plan);
  assert.deepEqual(parsePlan('{"kind":"crash-after-change","change":{"kind":"Service","name":"api","occurrence":2}}'), { kind: 'crash-after-change', change: { kind: 'Service', namespace: '', name: 'api', occurrence: 2 } });
  assert.throws(() => parsePlan('{"kind":"crash-after-change"}'), (err: Error) => err instanceof PlanError && err.message === 'change must be an object');
  assert.throws(() => parsePlan('{"kind":"crash-after-change","change":{"kind":"Service","name":"api","occurrence":0}}'), /change.occurrence must be an integer of at least 1/);
  assert.equal(describePlan(plan), 'killed right after change #4 of Service default/api, before it reconciled it, then restarted');
  assert.equal(CLASS_OF[plan.kind], 'intermediate-state');
});

test('each write of the controller is a crash, a stale cache and a stale restart', () => {
  const plans = planRuns({ writes: [changeOf('configmaps', '', 'ConfigMap', 'a', 1, true)], watched: new Set() });
  assert.deepEqual(plans.map((p) => p.kind), ['crash-after-write', 'stale-after-write', 'stale-restart-after-write']);
});

// Of the changes the simulated cluster's own controllers make, one per shape; the scenario's all.

function statusChange(name: string, occurrence: number, writer: string, ready: number): CommittedWrite {
  const object = (r: number) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default', resourceVersion: String(r) }, status: { readyReplicas: r } }) as KubeObject;
  return { verb: 'update', kind: 'apps/Deployment', group: 'apps', resource: 'deployments', namespace: 'default', name, pointName: name, resourceVersion: String(ready), object: object(ready), previous: object(ready - 1), byController: false, writer, change: { kind: 'apps/Deployment', namespace: 'default', name, occurrence }, atMs: occurrence };
}

test('changes alike by the cluster\'s own controllers are planned once; the scenario\'s each', () => {
  const cluster = 'kube-controller-manager/v1.28.4 (linux/amd64) kubernetes/sim/system:serviceaccount:kube-system:deployment-controller';
  const writes = ['a', 'b'].flatMap((name) => [1, 2, 3].map((n) => statusChange(name, n, cluster, n)));
  const planned = planRuns({ writes, watched: new Set(['deployments.apps']) }).filter((p) => p.kind === 'coalesce-change');
  assert.deepEqual(planned.map((p) => p.kind === 'coalesce-change' && `${p.change.name} #${p.change.occurrence}`), ['a #1']);
  const crashes = planRuns({ writes, watched: new Set(['deployments.apps']) }).filter((p) => p.kind === 'crash-after-change');
  assert.deepEqual(crashes.map((p) => p.kind === 'crash-after-change' && `${p.change.name} #${p.change.occurrence}`), ['a #1']);
  const byScenario = ['a', 'b'].flatMap((name) => [1, 2, 3].map((n) => statusChange(name, n, SCENARIO_USER_AGENT, n)));
  assert.equal(planRuns({ writes: byScenario, watched: new Set(['deployments.apps']) }).filter((p) => p.kind === 'coalesce-change').length, 4);
});

test('an object deleted and made again under its name is a coalesce and a relist plan at its deletion (the creation is no change)', () => {
  const deleted = { ...changeOf('services', '', 'Service', 'web', 1), verb: 'delete' as const, atMs: 10 };
  const remade: CommittedWrite = { verb: 'create', kind: 'Service', group: '', resource: 'services', namespace: 'default', name: 'web', pointName: 'web', resourceVersion: '9', object: object('web'), byController: false, writer: SCENARIO_USER_AGENT, atMs: 20 };
  const plans = planRuns({ writes: [deleted, remade], watched: new Set(['services']) });
  assert.deepEqual(plans.filter((p) => p.kind === 'coalesce-change' || p.kind === 'relist-across-changes').map((p) => `${p.kind} ${'change' in p ? `${p.change.kind} ${p.change.name} #${p.change.occurrence}` : ''}`), [
    'coalesce-change Service web #1',
    'relist-across-changes Service web #1',
  ]);
});

test('an object someone deleted, held by a finalizer, and made again: a restart after the last write against a view from right after that deletion (time travel)', () => {
  const at = (w: CommittedWrite, atMs: number, rv: string, patch: Partial<KubeObject['metadata']> = {}): CommittedWrite => ({ ...w, atMs, resourceVersion: rv, object: { ...w.object, metadata: { ...w.object.metadata, ...patch } } });
  const plans = planRuns({
    watched: new Set(['configmaps']),
    writes: [
      at(write(false, 'create', 'zk', 0), 0, '10'),
      at(write(true, 'update', 'zk', 1, 1), 1, '11', { finalizers: ['example.com/data'] }),
      at(write(false, 'delete', 'zk', 0, 2), 2, '12', { finalizers: ['example.com/data'], deletionTimestamp: '2026-11-29T00:00:00Z' }),
      at(write(true, 'update', 'zk', 2, 3), 3, '13'),
      at(write(false, 'create', 'zk', 0), 4, '14'),
      at(write(true, 'update', 'zk', 3, 4), 5, '15', { finalizers: ['example.com/data'] }),
    ],
  });
  const travels = plans.filter((p) => p.kind === 'stale-restart-after-write' && p.viewAfter);
  assert.deepEqual(travels, [{ kind: 'stale-restart-after-write', write: { verb: 'update', kind: 'ConfigMap', namespace: 'default', name: 'zk', occurrence: 3 }, lagMs: 1500, viewAfter: { kind: 'ConfigMap', namespace: 'default', name: 'zk', occurrence: 2 } }]);
  assert.deepEqual(parsePlan(encodePlan(travels[0]!)), travels[0]);
  assert.match(describePlan(travels[0]!), /restarted against a cache from right after change #2 of ConfigMap default\/zk/);
});

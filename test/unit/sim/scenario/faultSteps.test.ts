import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { FAULTS } from '../../../../src/sim/faults/faultTable.ts';
import { ScenarioError } from '../../../../src/sim/scenario/scenarioError.ts';
import { describeAction } from '../../../../src/sim/scenario/scenarioProgress.ts';
import { SimCluster } from '../../../../src/sim/simCluster.ts';

// A scenario's fault steps are the fault table's faults, by their names and with their arguments;
// the names scenarios used before still run, each with a warning.

async function run(yaml: string): Promise<{ cluster: SimCluster; warnings: readonly string[]; errors: readonly unknown[] }> {
  const clock = new FakeClock();
  const cluster = new SimCluster({ clock, seed: 0 });
  const r = cluster.loadScenario(yaml, { fileName: 'faults.yaml' });
  for (let i = 0; i < 20 && r.stepsRun < r.scenario.steps.length; i++) clock.step(1000);
  await r.done;
  return { cluster, warnings: r.warnings, errors: r.errors };
}

const OBJECTS = `objects:
  - { apiVersion: v1, kind: ConfigMap, metadata: { name: c, namespace: default } }
`;

test('a step takes every fault of the table by its name', () => {
  const cluster = new SimCluster({ clock: new FakeClock() });
  const example: Record<string, string> = {
    'delay-events': '0ms',
    conflict: '{ resource: configmaps, name: c }',
    'coalesce-events': '{ user: bob, resource: configmaps, name: c }',
    'stale-view': '{ user: bob, resourceVersion: now, forMs: 1s }',
  };
  const steps = FAULTS.map((f) => `  - ${f.name}: ${example[f.name] ?? 'true'}`).join('\n');
  const r = cluster.loadScenario(`steps:\n${steps}\n`);
  assert.deepEqual(r.scenario.steps.map((s) => (s.action.type === 'fault' ? s.action.fault : s.action.type)), FAULTS.map((f) => f.name));
  assert.deepEqual(r.warnings, []);
  r.stop();
});

test('fault steps run with the table’s arguments and say what they do', async () => {
  const { cluster, warnings, errors } = await run(`${OBJECTS}steps:
  - at: 1s
    http-faults: { errorRate: 0.5, errorCode: 429, latencyMs: 20ms }
  - after: 1s
    conflict: { resource: cm, name: "\${random}" }
  - after: 1s
    withhold-bookmarks: true
`);
  assert.deepEqual([warnings, errors], [[], []]);
  const state = cluster.faults.state();
  assert.deepEqual([state.http.errorRate, state.http.errorCode, state.http.latencyMs], [0.5, 429, 20]);
  assert.deepEqual(state.pendingConflicts, ['configmaps/default/c']);
  assert.equal(state.bookmarksWithheld, true);
  assert.equal(describeAction({ type: 'fault', fault: 'drop-watches', args: { resource: 'deployments.apps' } }), 'drop watches (deployments.apps)');
  assert.equal(describeAction({ type: 'fault', fault: 'http-faults', args: { errorRate: 0.2, errorCode: 429 } }), 'answer 20% of requests with 429');
});

test('the former names of fault steps still run, each with a warning naming the fault now', async () => {
  const { cluster, warnings, errors } = await run(`${OBJECTS}steps:
  - at: 1s
    errorRate: { rate: 1, code: 429, retryAfterSeconds: 2 }
  - after: 1s
    conflictNextUpdate: { kind: ConfigMap, namespace: default, name: c }
  - after: 1s
    withholdEvents: yes
  - after: 1s
    delayEvents: 250ms
`);
  assert.deepEqual(errors, []);
  const state = cluster.faults.state();
  assert.deepEqual([state.http.errorRate, state.http.errorCode, state.http.retryAfterSeconds], [1, 429, 2]);
  assert.deepEqual(state.pendingConflicts, ['configmaps/default/c']);
  assert.deepEqual([state.eventsWithheld, state.eventDelayMs], [true, 250]);
  assert.deepEqual(warnings, [
    'faults.yaml:5:16: steps[0].errorRate: "errorRate" is the former name of the fault "http-faults"; it still runs, but write it as http-faults',
    'faults.yaml:7:25: steps[1].conflictNextUpdate: "conflictNextUpdate" is the former name of the fault "conflict"; it still runs, but write it as conflict',
    'faults.yaml:9:21: steps[2].withholdEvents: "withholdEvents" is the former name of the fault "withhold-events"; it still runs, but write it as withhold-events',
    'faults.yaml:11:18: steps[3].delayEvents: "delayEvents" is the former name of the fault "delay-events"; it still runs, but write it as delay-events',
  ]);
});

test('a fault step with arguments the table refuses, or a resource nothing serves, is a problem of the file', () => {
  const cluster = new SimCluster({ clock: new FakeClock() });
  assert.throws(() => cluster.loadScenario(`steps:
  - http-faults: { errorRate: 2 }
  - drop-watches: { resource: gizmos }
  - delay-events: { seconds: 1 }
  - drop-watches: { resource: widgets.example.com }
  - create:
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: { name: widgets.example.com }
      spec: { group: example.com, scope: Namespaced, names: { plural: widgets, kind: Widget }, versions: [{ name: v1, served: true, storage: true }] }
`, { fileName: 'bad.yaml' }), (e: unknown) => {
    assert.ok(e instanceof ScenarioError);
    assert.deepEqual(e.problems.map((p) => `${p.line} ${p.path}: ${p.message}`), [
      '2 steps[0].http-faults: errorRate must be a number between 0 and 1',
      '3 steps[1].drop-watches: unknown resource "gizmos" (not served, and no CustomResourceDefinition in this file defines it)',
      '4 steps[2].delay-events: delay-events takes ms or user, not seconds',
    ]);
    return true;
  });
});

test('steps aim watch faults at one user, and every fault step is in the fault history where it ran', async () => {
  const { cluster, warnings, errors } = await run(`${OBJECTS}steps:
  - at: 1s
    withhold-events: { user: "controller-lab:checked" }
  - after: 1s
    coalesce-events: { user: "controller-lab:checked", resource: cm, name: c, count: 2 }
  - after: 1s
    stale-view: { user: "controller-lab:checked", resourceVersion: now, forMs: 5m }
`);
  assert.deepEqual([warnings, errors], [[], []]);
  const state = cluster.faults.state();
  assert.deepEqual(state.users, { 'controller-lab:checked': { eventDelayMs: 0, eventsWithheld: true } });
  assert.deepEqual(state.coalescing, [{ user: 'controller-lab:checked', resource: 'configmaps', key: 'default/c', releaseAfterMs: 30_000, remaining: 2 }]);
  assert.equal(state.staleViews[0]?.user, 'controller-lab:checked');
  const start = cluster.faults.history()[0]!.at - 1000;
  assert.deepEqual(cluster.faults.history().map((h) => [h.name, h.at - start, h.resourceVersion === cluster.resourceVersion]), [
    ['withhold-events', 1000, true],
    ['coalesce-events', 2000, true],
    ['stale-view', 3000, true],
  ]);
  assert.equal(describeAction({ type: 'fault', fault: 'coalesce-events', args: { user: 'u', resource: 'cm', name: 'c' } }), 'coalesce the next event of cm c for u');
  assert.equal(describeAction({ type: 'fault', fault: 'expire-watches', args: { user: 'u', discardWithheld: true } }), 'expire watches for u, discarding what they hold');
});

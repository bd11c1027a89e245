import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { SimCluster } from '../../../../src/sim/simCluster.ts';
import { ScenarioError } from '../../../../src/sim/scenario/scenarioError.ts';
import { parseDuration } from '../../../../src/sim/vocabulary/duration.ts';

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const DEPLOY = { group: 'apps', version: 'v1', resource: 'deployments' };
const example = (name: string): string => readFileSync(fileURLToPath(new URL(`../../../../examples/scenarios/${name}`, import.meta.url)), 'utf8');

function cluster(): { cluster: SimCluster; clock: FakeClock } {
  const clock = new FakeClock();
  return { cluster: new SimCluster({ clock, seed: 0 }), clock };
}

/** Everything in the store as JSON, for comparing two runs. */
function dump(c: SimCluster): string {
  return c.resources.all().filter((r) => r.version === r.storageVersion && r.verbs.includes('list'))
    .map((r) => c.list({ group: r.group, version: r.version, resource: r.resource }, {}).json()).join('\n');
}

test('durations: ms, s, m, h and plain numbers', () => {
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('1.5s'), 1500);
  assert.equal(parseDuration('2m'), 120_000);
  assert.equal(parseDuration(250), 250);
  assert.equal(parseDuration('soon'), undefined);
});

test('objects are applied at once (namespaces created when missing, status through /status), steps when the clock reaches them', async () => {
  const { cluster: c, clock } = cluster();
  const run = c.loadScenario(`
seed: 3
objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: { name: web, namespace: auto }
    spec:
      replicas: 1
      selector: { matchLabels: { app: web } }
      template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: web, image: nginx }] } }
    status: { replicas: 1, readyReplicas: 1 }
steps:
  - at: 2s
    scale: { kind: deploy, namespace: auto, name: web, replicas: 3 }
  - after: 1s
    label: { kind: Deployment, namespace: auto, name: web, labels: { tier: front } }
`);
  const d = c.get(DEPLOY, 'auto', 'web').object;
  assert.deepEqual(d.status, { replicas: 1, readyReplicas: 1 });
  clock.step(1999);
  assert.equal((c.get(DEPLOY, 'auto', 'web').object.spec as { replicas: number }).replicas, 1);
  clock.step(1);
  assert.equal((c.get(DEPLOY, 'auto', 'web').object.spec as { replicas: number }).replicas, 3);
  assert.equal(c.get(DEPLOY, 'auto', 'web').object.metadata.labels?.tier, undefined);
  clock.step(1000);
  assert.equal(c.get(DEPLOY, 'auto', 'web').object.metadata.labels?.tier, 'front');
  await run.done;
  assert.equal(run.stepsRun, 2);
  assert.deepEqual(run.errors, []);
});

test('the same seed gives the same uids, names and random picks; another seed does not', () => {
  const text = (seed: number): string => `
seed: ${seed}
objects:
  - { apiVersion: v1, kind: Namespace, metadata: { name: load } }
steps:
  - repeat:
      count: 20
      every: 10ms
      step:
        create: { apiVersion: v1, kind: ConfigMap, metadata: { generateName: "cm-", namespace: load }, data: { v: "0" } }
  - after: 1s
    repeat:
      count: 30
      over: 3s
      step:
        patch: { target: { kind: ConfigMap, namespace: load, name: "\${random}" }, patch: { data: { v: "\${rand}-\${i}" } } }
`;
  const runs = [1, 1, 2].map((seed) => {
    const { cluster: c, clock } = cluster();
    c.loadScenario(text(seed));
    clock.step(10_000);
    return dump(c);
  });
  assert.equal(runs[0], runs[1]);
  assert.notEqual(runs[0], runs[2]);
});

test('a failing step is recorded with its source and the run goes on', async () => {
  const { cluster: c, clock } = cluster();
  const run = c.loadScenario(`
steps:
  - delete: { kind: ConfigMap, namespace: default, name: ghost }
  - create: { apiVersion: v1, kind: ConfigMap, metadata: { name: real }, data: {} }
`);
  clock.step(0);
  await run.done;
  assert.equal(run.errors.length, 1);
  assert.equal(run.errors[0]?.path, 'steps[0]');
  assert.equal(run.errors[0]?.line, 3);
  assert.match(run.errors[0]?.message ?? '', /configmaps "ghost" not found/);
  assert.ok(c.get(CM, 'default', 'real'));
});

test('a create whose name an object being deleted still holds waits for it to go, as kubectl delete waits before the next command', async () => {
  const { cluster: c, clock } = cluster();
  const run = c.loadScenario(`
objects:
  - { apiVersion: v1, kind: ConfigMap, metadata: { name: zk, namespace: default, finalizers: [example.com/data] }, data: { v: old } }
steps:
  - at: 1s
    delete: { kind: ConfigMap, namespace: default, name: zk }
  - after: 1s
    create: { apiVersion: v1, kind: ConfigMap, metadata: { name: zk, namespace: default }, data: { v: new } }
`);
  clock.step(2000);
  assert.equal((c.get(CM, 'default', 'zk').object as unknown as { data: { v: string } }).data.v, 'old', 'the old one, terminating, still holds the name');
  clock.step(3000);
  // Its finalizer removed late, as a controller restarted meanwhile would.
  c.patch(CM, 'default', 'zk', 'merge', { metadata: { finalizers: null } });
  clock.step(100);
  await run.done;
  assert.deepEqual(run.errors, []);
  assert.equal((c.get(CM, 'default', 'zk').object as unknown as { data: { v: string } }).data.v, 'new');
});

test('a create waits for a terminating object of its name 30 s at most, then fails as it would', async () => {
  const { cluster: c, clock } = cluster();
  const run = c.loadScenario(`
objects:
  - { apiVersion: v1, kind: ConfigMap, metadata: { name: stuck, namespace: default, finalizers: [example.com/never] } }
steps:
  - delete: { kind: ConfigMap, namespace: default, name: stuck }
  - create: { apiVersion: v1, kind: ConfigMap, metadata: { name: stuck, namespace: default } }
`);
  for (let i = 0; i < 700; i++) clock.step(50);
  await run.done;
  assert.equal(run.errors.length, 1);
  assert.match(run.errors[0]?.message ?? '', /already exists/);
});

test('a bad scenario file reports every problem with line and field, and applies nothing', () => {
  const { cluster: c } = cluster();
  const rv = c.resourceVersion;
  const bad = `seed: 1
objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: fine }
  - apiVersion: v1
    kind: Gizmo
    metadata: { name: g }
steps:
  - at: soon
    compact: now
  - after: 1s
    explode: true
  - scale: { kind: Deployment, name: web }
`;
  assert.throws(() => c.loadScenario(bad, { fileName: 'bad.yaml' }), (e: unknown) => {
    assert.ok(e instanceof ScenarioError);
    const byPath = Object.fromEntries(e.problems.map((p) => [p.path, p.line]));
    assert.equal(byPath['objects[1].kind'], 7);
    assert.equal(byPath['steps[0].at'], 10);
    assert.equal(byPath['steps[1].explode'], 13);
    assert.equal(byPath['steps[2].scale.replicas'] ?? byPath['steps[2].scale'], 14);
    assert.match(e.message, /^bad\.yaml:7:\d+: objects\[1\]\.kind: unknown kind "Gizmo"/m);
    return true;
  });
  assert.equal(c.resourceVersion, rv, 'nothing was applied');
});

test('the same object twice in a scenario is a problem naming where it was first', () => {
  const { cluster: c } = cluster();
  const rv = c.resourceVersion;
  const twice = `objects:
  - { apiVersion: v1, kind: ConfigMap, metadata: { name: a, namespace: default }, data: { x: "1" } }
  - { apiVersion: v1, kind: Secret, metadata: { name: a, namespace: default } }
  - { apiVersion: v1, kind: ConfigMap, metadata: { name: a, namespace: other } }
  - { apiVersion: v1, kind: ConfigMap, metadata: { name: a, namespace: default }, data: { x: "2" } }
`;
  assert.throws(() => c.loadScenario(twice, { fileName: 'dup.yaml' }), (e: unknown) => {
    assert.ok(e instanceof ScenarioError);
    assert.deepEqual(e.message.split('\n'), ['dup.yaml:5:5: objects[3]: ConfigMap default/a is already defined at line 2: give one of them another name, or change it in a step']);
    return true;
  });
  assert.equal(c.resourceVersion, rv, 'nothing was applied');
});

test('a step, a repeat or a workload delay past a day is a problem of the file, not a step Node runs at once', () => {
  const { cluster: c } = cluster();
  const far = `workloads: { podStartDelay: 999999h }
steps:
  - at: 99999999999999h
    delete: { apiVersion: v1, kind: ConfigMap, namespace: default, name: x }
  - at: 1s
    repeat: { count: 1000000, every: 1h, step: { delete: { apiVersion: v1, kind: ConfigMap, namespace: default, name: x } } }
`;
  assert.throws(() => c.loadScenario(far, { fileName: 'far.yaml' }), (e: unknown) => {
    assert.ok(e instanceof ScenarioError);
    assert.deepEqual(e.message.split('\n').map((l) => l.replace(/^far\.yaml:\d+:\d+: /, '')), [
      'workloads.podStartDelay: must be at most 24h',
      "steps[0]: comes 99999999999999h after the start; a scenario's steps must all come within 24h",
      "steps[1].repeat: its last step comes 999999h after the start; a scenario's steps must all come within 24h",
    ]);
    return true;
  });
});

test('YAML syntax errors point at their line', () => {
  const { cluster: c } = cluster();
  assert.throws(() => c.loadScenario('objects:\n  - { apiVersion: v1\nsteps: [', { fileName: 'broken.yaml' }), (e: unknown) =>
    e instanceof ScenarioError && e.problems.length > 0 && e.problems.every((p) => p.line > 0) && /^broken\.yaml:\d+:\d+: YAML/.test(e.message));
});

test('YAML that would exhaust the parser is a problem of the file, in words: an alias bomb, nesting too deep', () => {
  const { cluster: c } = cluster();
  // Each level holds nine of the one before: nine levels expand to 387 million strings.
  let bomb = 'a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]\n';
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++) bomb += `${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(', ')}]\n`;
  bomb += 'objects:\n  - { apiVersion: v1, kind: ConfigMap, metadata: { name: bomb, namespace: default }, data: { k: *i } }\n';
  assert.throws(() => c.loadScenario(bomb, { fileName: 'laughs.yaml' }), (e: unknown) =>
    e instanceof ScenarioError && /^laughs\.yaml:1:1: YAML: its aliases expand to too many nodes/.test(e.message));
  const deep = `objects:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: deep, namespace: default }\n    x: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
  assert.throws(() => c.loadScenario(deep, { fileName: 'deep.yaml' }), (e: unknown) =>
    e instanceof ScenarioError && /^deep\.yaml:5:\d+: YAML: nested too deeply/.test(e.message) && !/call stack/.test(e.message));
});

test('kinds defined by a CRD in the same file validate and get served', () => {
  const { cluster: c } = cluster();
  c.loadScenario(`
objects:
  - apiVersion: example.com/v1
    kind: Widget
    metadata: { name: w1, namespace: default }
    spec: { size: 2 }
  - apiVersion: apiextensions.k8s.io/v1
    kind: CustomResourceDefinition
    metadata: { name: widgets.example.com }
    spec:
      group: example.com
      scope: Namespaced
      names: { plural: widgets, singular: widget, kind: Widget }
      versions: [{ name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } } }]
`);
  assert.equal(c.get({ group: 'example.com', version: 'v1', resource: 'widgets' }, 'default', 'w1').object.metadata.name, 'w1');
});

test('objects of a version served by conversion are written as the version they are stored in', async () => {
  const { cluster: c, clock } = cluster();
  const run = c.loadScenario(`
objects:
  - apiVersion: autoscaling/v1
    kind: HorizontalPodAutoscaler
    metadata: { name: web, namespace: default }
    spec: { scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }, maxReplicas: 4, targetCPUUtilizationPercentage: 65 }
  - apiVersion: events.k8s.io/v1
    kind: Event
    metadata: { name: hello, namespace: default }
    eventTime: "2026-01-01T00:00:00.000000Z"
    reportingController: me
    reportingInstance: me-1
    action: Greet
    reason: Hello
    type: Normal
    note: hi
    regarding: { kind: Namespace, name: default, apiVersion: v1 }
steps:
  - at: 1s
    create:
      apiVersion: autoscaling/v1
      kind: HorizontalPodAutoscaler
      metadata: { name: later, namespace: default }
      spec: { scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }, maxReplicas: 2 }
`);
  clock.step(1000);
  await run.done;
  assert.deepEqual(run.errors, []);
  const HPA = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
  const metric = (name: string) => (c.get(HPA, 'default', name).object.spec as { metrics: { resource: { target: { averageUtilization: number } } }[] }).metrics[0]!.resource.target.averageUtilization;
  assert.equal(metric('web'), 65);
  assert.equal(metric('later'), 80);
  assert.equal(c.get({ group: '', version: 'v1', resource: 'events' }, 'default', 'hello').object.message, 'hi');
});

for (const file of ['basic.yaml', 'chaos.yaml', 'load.yaml']) {
  test(`examples/scenarios/${file} validates and runs to the end without step errors`, async () => {
    const { cluster: c, clock } = cluster();
    const run = c.loadScenario(example(file), { fileName: file });
    for (let i = 0; i < 200 && run.stepsRun < run.scenario.steps.length; i++) clock.step(1000);
    await run.done;
    assert.equal(run.stepsRun, run.scenario.steps.length);
    assert.deepEqual(run.errors, []);
  });
}

test('thousands of steps due at once run in bursts that let the event loop turn, and all of them run', async () => {
  const cluster = new SimCluster();
  const yaml = `objects:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}, data: {n: "0"}}
steps:
- at: 0s
  repeat: {count: 5000, every: 0s, step: {patch: {target: {kind: ConfigMap, namespace: default, name: c}, patch: {data: {n: "\${i}"}}}}}
`;
  const run = cluster.loadScenario(yaml);
  // Without bursts every step ran inside loadScenario, before any other client got a turn.
  assert.ok(run.stepsRun <= 500, `ran ${run.stepsRun} steps before returning`);
  await run.done;
  assert.equal(run.stepsRun, 5000);
  const cm = cluster.get({ group: '', version: 'v1', resource: 'configmaps' }, 'default', 'c').object as unknown as { data: { n: string } };
  assert.equal(cm.data.n, '4999');
  await cluster.close();
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { SimCluster } from '../../../../src/sim/simCluster.ts';
import { parseScenario } from '../../../../src/sim/scenario/scenarioParser.ts';
import { ScenarioError } from '../../../../src/sim/scenario/scenarioError.ts';

// A scenario of many objects (a cluster's dump) is read object by object: what it keeps is in
// proportion to the objects, not to the YAML parser's tree of the whole file, and its problems
// still point at their line and column.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function configMaps(n: number): string {
  const items = Array.from({ length: n }, (_, i) => `  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: cm-${i}
      namespace: default
    data:
      config.yaml: "${'x'.repeat(900)}"
`);
  return `seed: 1\nobjects:\n${items.join('')}steps:\n  - at: 1s\n    delete: { apiVersion: v1, kind: ConfigMap, namespace: default, name: cm-0 }\n`;
}

test('a scenario of thousands of objects keeps a few times its text in memory, not tens of times', () => {
  const text = configMaps(3000);
  gc();
  const before = process.memoryUsage().heapUsed;
  const scenario = parseScenario(text, 'big.yaml', () => true);
  gc();
  const kept = process.memoryUsage().heapUsed - before;
  assert.equal(scenario.objects.length, 3000);
  assert.equal(scenario.steps.length, 1);
  assert.equal(scenario.steps[0]?.line, 3000 * 7 + 4);
  assert.equal((scenario.objects[2999]?.object as unknown as { data: Record<string, string> }).data['config.yaml']?.length, 900);
  // Each parsed 900-character quoted string used to keep its pieces, ~30 times its size.
  assert.ok(kept < 4 * text.length, `kept ${Math.round(kept / 1048576)} MB for ${Math.round(text.length / 1048576)} MB of YAML`);
});

test('a problem in one of many objects is said at its line and column', () => {
  const lines = configMaps(200).split('\n');
  // Object 150's kind (its `- ` is on line 3 + 7 × 150).
  lines[3 + 7 * 150] = '    kind: Gizmo';
  assert.throws(() => parseScenario(lines.join('\n'), 'big.yaml', (_, kind) => kind !== 'Gizmo'), (e: unknown) => {
    assert.ok(e instanceof ScenarioError, String(e));
    assert.equal(e.problems.length, 1, e.message);
    assert.equal(e.problems[0]?.path, 'objects[150].kind');
    assert.equal(e.problems[0]?.line, 4 + 7 * 150);
    assert.equal(e.problems[0]?.column, 11);
    return true;
  });
});

test('anchors and aliases across objects, and YAML errors, read as they did', () => {
  const cluster = new SimCluster({ clock: new FakeClock(), seed: 0 });
  const shared = `objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: a, namespace: default }
    data: &shared { mode: fast }
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: b, namespace: default }
    data: *shared
`;
  cluster.loadScenario(shared);
  assert.deepEqual(cluster.get({ group: '', version: 'v1', resource: 'configmaps' }, 'default', 'b')?.object.data, { mode: 'fast' });
  const broken = 'objects:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: a\n';
  assert.throws(() => parseScenario(broken, 'broken.yaml', () => true), (e: unknown) => e instanceof ScenarioError && /^broken\.yaml:5:1: YAML: Flow map/.test(e.message));
});

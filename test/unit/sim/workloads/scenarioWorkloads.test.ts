import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScenarioError } from '../../../../src/sim/scenario/scenarioError.ts';
import { newCluster, tick } from '../store/helpers.ts';
import { GVR } from './harness.ts';

// A scenario turns the workload simulation on with its `workloads` field, and a bad value is
// reported with its line before anything runs.

const SCENARIO = `seed: 7
workloads: { nodes: 2, podStartDelay: 100ms }
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: { name: web, namespace: default }
  spec:
    replicas: 2
    selector: { matchLabels: { app: web } }
    template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: web, image: nginx }] } }
`;

test('workloads: in a scenario starts the controllers and fake Nodes, and the Deployment rolls out', async () => {
  const { cluster, clock } = newCluster();
  cluster.loadScenario(SCENARIO);
  for (let i = 0; i < 200; i++) {
    await tick();
    clock.step(10);
  }
  assert.deepEqual(cluster.list(GVR.nodes, {}).items.map((n) => n.object.metadata.name), ['sim-worker-1', 'sim-worker-2']);
  const web = cluster.get(GVR.deployments, 'default', 'web').object as { status?: { availableReplicas?: number } };
  assert.equal(web.status?.availableReplicas, 2);
  await cluster.close();
});

test('a bad workloads field names its line and field', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.loadScenario('workloads: { nodes: -1, podStartDelay: soon, speed: 3 }\n', { fileName: 'w.yaml' }), (err: unknown) => {
    assert.ok(err instanceof ScenarioError);
    const text = err.message;
    assert.match(text, /w\.yaml:1.*workloads\.nodes.*whole number/);
    assert.match(text, /workloads\.podStartDelay.*duration/);
    assert.match(text, /workloads\.speed.*unknown field/);
    return true;
  });
  assert.equal(cluster.list(GVR.nodes, {}).items.length, 0, 'nothing started');
});

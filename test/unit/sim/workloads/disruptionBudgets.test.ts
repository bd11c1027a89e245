import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { PDBS } from '../../../../src/sim/workloads/disruptionController.ts';
import { deployment, GVR, statusOf, workloadLab, type Lab } from './harness.ts';

// PodDisruptionBudgets report what the disruption controller reports on a real cluster: how many of
// their Pods are healthy, how many must be, and how many disruptions that allows — the numbers the
// eviction API (and so `kubectl drain`) decides on.

function budget(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } };
}

const budgetStatus = (lab: Lab, name: string): Record<string, unknown> => statusOf(lab.cluster.get(PDBS, 'default', name).object as KubeObject);
const numbers = (s: Record<string, unknown>): number[] => [s.expectedPods, s.desiredHealthy, s.currentHealthy, s.disruptionsAllowed] as number[];

test('minAvailable and maxUnavailable budgets count the healthy Pods of a Deployment', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 4, 'nginx'));
  lab.cluster.create(PDBS, 'default', budget('min-count', { minAvailable: 3 }));
  lab.cluster.create(PDBS, 'default', budget('min-percent', { minAvailable: '60%' }));
  lab.cluster.create(PDBS, 'default', budget('max-unavailable', { maxUnavailable: '25%' }));
  await lab.until(() => budgetStatus(lab, 'min-count').currentHealthy === 4 && budgetStatus(lab, 'max-unavailable').currentHealthy === 4);

  assert.deepEqual(numbers(budgetStatus(lab, 'min-count')), [4, 3, 4, 1]);
  assert.deepEqual(numbers(budgetStatus(lab, 'min-percent')), [4, 3, 4, 1], '60% of 4 rounds up to 3');
  assert.deepEqual(numbers(budgetStatus(lab, 'max-unavailable')), [4, 3, 4, 1]);
  const status = budgetStatus(lab, 'min-count');
  const pdb = lab.cluster.get(PDBS, 'default', 'min-count').object;
  assert.equal(status.observedGeneration, pdb.metadata.generation);
  const [condition] = status.conditions as Record<string, unknown>[];
  assert.deepEqual(Object.keys(condition!), ['type', 'status', 'observedGeneration', 'lastTransitionTime', 'reason', 'message']);
  assert.deepEqual([condition!.type, condition!.status, condition!.reason], ['DisruptionAllowed', 'True', 'SufficientPods']);
});

test('a Pod going away lowers the count and forbids disruption until it is replaced', async () => {
  const lab = workloadLab({ podStartDelayMs: 2000 });
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 3, 'nginx'));
  lab.cluster.create(PDBS, 'default', budget('strict', { minAvailable: 3 }));
  await lab.until(() => budgetStatus(lab, 'strict').currentHealthy === 3);
  assert.equal(budgetStatus(lab, 'strict').disruptionsAllowed, 0);
  assert.equal((budgetStatus(lab, 'strict').conditions as { reason: string }[])[0]!.reason, 'InsufficientPods');

  const [victim] = lab.items(GVR.pods);
  lab.cluster.delete(GVR.pods, 'default', victim!.metadata.name!);
  await lab.until(() => budgetStatus(lab, 'strict').currentHealthy === 2);
  await lab.until(() => budgetStatus(lab, 'strict').currentHealthy === 3, 10_000);
});

test('a percentage over Pods without a controller cannot be computed, and says so', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bare', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  lab.cluster.create(PDBS, 'default', budget('percent', { maxUnavailable: '50%' }));
  await lab.until(() => (budgetStatus(lab, 'percent').conditions as unknown[] | undefined) !== undefined);
  const [condition] = budgetStatus(lab, 'percent').conditions as Record<string, string>[];
  assert.deepEqual([condition!.status, condition!.reason, condition!.message], ['False', 'SyncFailed', 'found no controllers for pod "bare"']);
  assert.equal(budgetStatus(lab, 'percent').disruptionsAllowed, 0);
});

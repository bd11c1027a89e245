import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { EVENTS } from '../../../../src/sim/workloads/eventRecorder.ts';
import { HPAS } from '../../../../src/sim/workloads/hpaController.ts';
import { deployment, GVR, statusOf, workloadLab, type Lab } from './harness.ts';

// HorizontalPodAutoscalers on the simulated cluster behave as on a real cluster without a metrics
// server: the replicas are kept within minReplicas and maxReplicas, and otherwise the status and
// events say the metrics cannot be read, so nothing scales on them.

function hpa(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec } };
}

const hpaStatus = (lab: Lab, name: string): Record<string, unknown> => statusOf(lab.cluster.get(HPAS, 'default', name).object as KubeObject);
const conditions = (lab: Lab, name: string): string[] => ((hpaStatus(lab, name).conditions ?? []) as { type: string; status: string; reason: string }[]).map((c) => `${c.type}=${c.status}/${c.reason}`);
const replicas = (lab: Lab): number => (lab.cluster.get(GVR.deployments, 'default', 'web').object.spec as { replicas: number }).replicas;
const eventReasons = (lab: Lab): string[] => lab.cluster.list(EVENTS, { namespace: 'default' }).items.map((e) => e.object as KubeObject & { reason: string; involvedObject: { kind: string } }).filter((e) => e.involvedObject.kind === 'HorizontalPodAutoscaler').map((e) => e.reason);

test('without metrics the autoscaler keeps the size and says it cannot read CPU', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 2, 'nginx'));
  lab.cluster.create(HPAS, 'default', hpa('web', { minReplicas: 1 }));
  await lab.until(() => conditions(lab, 'web').length === 2);
  assert.deepEqual(conditions(lab, 'web'), ['AbleToScale=True/SucceededGetScale', 'ScalingActive=False/FailedGetResourceMetric']);
  const status = hpaStatus(lab, 'web');
  assert.equal(status.currentReplicas, 2);
  assert.equal(status.desiredReplicas, 0);
  assert.deepEqual(status.currentMetrics, [{ type: '' }]);
  const active = (status.conditions as { type: string; message: string }[]).find((c) => c.type === 'ScalingActive')!;
  assert.equal(active.message, 'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)');
  assert.equal(replicas(lab), 2);
  assert.ok(eventReasons(lab).includes('FailedGetResourceMetric') && eventReasons(lab).includes('FailedComputeMetricsReplicas'));

  // Once per 15 s sync, not again for its own status write.
  const count = (): number => lab.cluster.list(EVENTS, { namespace: 'default' }).items.map((e) => e.object as KubeObject & { reason: string; count: number }).find((e) => e.reason === 'FailedGetResourceMetric')!.count;
  await lab.run(2000);
  assert.equal(count(), 1);
  await lab.run(15_000);
  assert.equal(count(), 2);
});

test('replicas below minReplicas or above maxReplicas are brought within them', async () => {
  const lab = workloadLab();
  lab.cluster.create(GVR.deployments, 'default', deployment('web', 1, 'nginx'));
  lab.cluster.create(HPAS, 'default', hpa('web', { minReplicas: 3 }));
  await lab.until(() => replicas(lab) === 3);
  assert.equal(hpaStatus(lab, 'web').desiredReplicas, 3);
  assert.match(String(hpaStatus(lab, 'web').lastScaleTime), /^\d{4}-\d\d-\d\dT/);
  assert.ok(conditions(lab, 'web').includes('AbleToScale=True/SucceededRescale'));
  assert.ok(eventReasons(lab).includes('SuccessfulRescale'));

  const current = lab.cluster.get(HPAS, 'default', 'web').object;
  lab.cluster.update(HPAS, 'default', 'web', { ...current, spec: { ...(current.spec as object), minReplicas: 1, maxReplicas: 2 } } as KubeObject, undefined);
  await lab.until(() => replicas(lab) === 2, 20_000);
});

test('a missing target is reported as FailedGetScale', async () => {
  const lab = workloadLab();
  lab.cluster.create(HPAS, 'default', hpa('orphan', { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nowhere' } }));
  await lab.until(() => conditions(lab, 'orphan').length === 1);
  assert.deepEqual(conditions(lab, 'orphan'), ['AbleToScale=False/FailedGetScale']);
  const [c] = hpaStatus(lab, 'orphan').conditions as { message: string }[];
  assert.equal(c!.message, "the HPA controller was unable to get the target's current scale: deployments/scale.apps \"nowhere\" not found");
});

// autoscaling/v1 as a view of the stored autoscaling/v2 HorizontalPodAutoscaler, converted as
// kube-apiserver converts it: what v1 has no field for travels in annotations and comes back whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { hpaV1ToV2, hpaV2ToV1 } from '../../../../src/sim/resources/hpaV1.ts';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

function v2(spec: Record<string, unknown>, status: Record<string, unknown> = { desiredReplicas: 0, currentMetrics: null }): KubeObject {
  return { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'default', annotations: { team: 'a' } }, spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, ...spec }, status } as KubeObject;
}

const cpu = (averageUtilization: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } } });
const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } };

test('a CPU utilization target is targetCPUUtilizationPercentage, and nothing else is added', () => {
  const v1 = hpaV2ToV1(v2({ metrics: [cpu(60)] }));
  assert.equal(v1.apiVersion, 'autoscaling/v1');
  assert.deepEqual(v1.spec, { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
  assert.deepEqual(v1.status, { currentReplicas: 0, desiredReplicas: 0 });
  assert.deepEqual(v1.metadata.annotations, { team: 'a' });
  assert.deepEqual(hpaV1ToV2(v1).spec, { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, metrics: [cpu(60)] });
});

test('a v1 object without a target means CPU at 80%, as autoscaling/v1 always did', () => {
  const stored = hpaV1ToV2({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } } as KubeObject);
  assert.deepEqual((stored.spec as { metrics: unknown }).metrics, [cpu(80)]);
  assert.equal(stored.status, undefined, 'a create without status starts from the zero status');
});

test('other metrics, current metrics, conditions and behavior travel in annotations and come back', () => {
  const behavior = { scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] }, scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] } };
  const conditions = [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ReadyForNewScale', message: 'ok' }];
  const currentMetrics = [
    { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42, averageValue: '210m' } } },
    { type: 'Pods', pods: { metric: { name: 'qps' }, current: { averageValue: '7' } } },
  ];
  const pods = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };
  const stored = v2({ metrics: [cpu(60), memory, pods], behavior }, { currentReplicas: 2, desiredReplicas: 3, currentMetrics, conditions });
  const v1 = hpaV2ToV1(stored);
  const annotations = v1.metadata.annotations!;
  assert.equal(annotations['autoscaling.alpha.kubernetes.io/metrics'], '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"500Mi"}},{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]');
  assert.equal(annotations['autoscaling.alpha.kubernetes.io/current-metrics'], '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":42,"currentAverageValue":"210m"}},{"type":"Pods","pods":{"metricName":"qps","currentAverageValue":"7"}}]');
  assert.equal(annotations['autoscaling.alpha.kubernetes.io/conditions'], '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"ReadyForNewScale","message":"ok"}]');
  assert.equal(annotations['autoscaling.alpha.kubernetes.io/behavior'], '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}]},"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}');
  assert.equal((v1.status as { currentCPUUtilizationPercentage: number }).currentCPUUtilizationPercentage, 42);

  const back = hpaV1ToV2(v1);
  assert.deepEqual(back.metadata.annotations, { team: 'a' }, 'the round-trip annotations are not stored');
  const spec = back.spec as Record<string, unknown>;
  assert.deepEqual(spec.metrics, [memory, pods, cpu(60)], 'metrics from the annotation first, then the CPU target');
  assert.deepEqual(spec.behavior, behavior);
  const status = back.status as Record<string, unknown>;
  assert.deepEqual(status.currentMetrics, currentMetrics);
  assert.deepEqual(status.conditions, conditions);
  assert.equal(status.currentReplicas, 2);
  assert.equal(status.desiredReplicas, 3);
});

test('object and external metrics keep their targets through v1', () => {
  const object = { type: 'Object', object: { describedObject: { kind: 'Service', name: 'front', apiVersion: 'v1' }, metric: { name: 'rps' }, target: { type: 'Value', value: '100' } } };
  const external = { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'jobs' } } }, target: { type: 'AverageValue', averageValue: '30' } } };
  const v1 = hpaV2ToV1(v2({ metrics: [object, external] }));
  assert.equal((v1.spec as Record<string, unknown>).targetCPUUtilizationPercentage, undefined);
  assert.equal(v1.metadata.annotations!['autoscaling.alpha.kubernetes.io/metrics'], '[{"type":"Object","object":{"target":{"kind":"Service","name":"front","apiVersion":"v1"},"metricName":"rps","targetValue":"100"}},{"type":"External","external":{"metricName":"queue","metricSelector":{"matchLabels":{"q":"jobs"}},"targetAverageValue":"30"}}]');
  assert.deepEqual((hpaV1ToV2(v1).spec as { metrics: unknown }).metrics, [object, external]);
});

test('a v1 client that drops the annotations keeps only what v1 has; a malformed metrics annotation is a 400, a malformed behavior is ignored', () => {
  const v1 = hpaV2ToV1(v2({ metrics: [cpu(60), memory] }));
  const stripped = { ...v1, metadata: { ...v1.metadata, annotations: {} } };
  assert.deepEqual((hpaV1ToV2(stripped).spec as { metrics: unknown }).metrics, [cpu(60)]);
  assert.throws(() => hpaV1ToV2({ ...v1, metadata: { name: 'web', annotations: { 'autoscaling.alpha.kubernetes.io/metrics': '[{' } } }), (err: Error & { code?: number }) => err.code === 400);
  const lenient = hpaV1ToV2({ ...v1, metadata: { name: 'web', annotations: { 'autoscaling.alpha.kubernetes.io/behavior': 'nope' } } });
  assert.equal((lenient.spec as Record<string, unknown>).behavior, undefined);
  assert.equal(lenient.metadata.annotations, undefined);
});

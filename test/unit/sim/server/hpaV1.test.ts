// autoscaling/v1 HorizontalPodAutoscalers over HTTP, as `kubectl autoscale` and v1-era controllers
// use them: one storage with autoscaling/v2, so what one version writes the other reads, and a v1
// client's read-modify-write loses none of v2's metrics or behavior.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, openWatch } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

describe('autoscaling/v1 HorizontalPodAutoscalers', () => {
  it('are served beside v2 in discovery, v2 preferred, with the same storage hash', async () => {
    const group = (await call(suite.server, 'GET', '/apis/autoscaling')).json();
    assert.deepEqual(group.versions.map((v: { version: string }) => v.version), ['v2', 'v1']);
    assert.equal(group.preferredVersion.version, 'v2');
    const v1 = (await call(suite.server, 'GET', '/apis/autoscaling/v1')).json();
    assert.deepEqual(v1.resources.map((r: { name: string }) => r.name), ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']);
    const v2 = (await call(suite.server, 'GET', '/apis/autoscaling/v2')).json();
    assert.equal(v1.resources[0].storageVersionHash, v2.resources[0].storageVersionHash);
  });

  it('creates as kubectl autoscale does, stored as v2 with the CPU target as a metric', async () => {
    const created = await call(suite.server, 'POST', `${V1}?fieldManager=kubectl-autoscale`, {
      body: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: ref, maxReplicas: 5, targetCPUUtilizationPercentage: 60 } },
    });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().spec, { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
    const stored = (await call(suite.server, 'GET', `${V2}/web`)).json();
    assert.deepEqual(stored.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }]);
    const table = await call(suite.server, 'GET', `${V1}/web`, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assert.deepEqual(table.json().rows[0].cells.slice(0, 6), ['web', 'Deployment/web', '<unknown>/60%', '1', 5, 0]);
  });

  it('keeps v2 metrics and behavior through a v1 read-modify-write, and refuses unknown v1 fields under Strict', async () => {
    const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } };
    const cpu = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } };
    const behavior = { scaleDown: { stabilizationWindowSeconds: 60 } };
    const made = await call(suite.server, 'POST', V2, { body: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'mixed' }, spec: { scaleTargetRef: ref, maxReplicas: 4, metrics: [cpu, memory], behavior } } });
    assert.equal(made.status, 201, made.body);

    const v1 = (await call(suite.server, 'GET', `${V1}/mixed`)).json();
    assert.equal(v1.spec.targetCPUUtilizationPercentage, 70);
    assert.match(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'], /"name":"memory","targetAverageValue":"500Mi"/);
    assert.match(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior'], /"ScaleDown":\{"StabilizationWindowSeconds":60,"SelectPolicy":"Max"/);

    v1.spec.maxReplicas = 8;
    const put = await call(suite.server, 'PUT', `${V1}/mixed`, { body: v1 });
    assert.equal(put.status, 200, put.body);
    const stored = (await call(suite.server, 'GET', `${V2}/mixed`)).json();
    assert.equal(stored.spec.maxReplicas, 8);
    assert.deepEqual(stored.spec.metrics, [memory, cpu]);
    assert.equal(stored.spec.behavior.scaleDown.stabilizationWindowSeconds, 60);
    assert.equal(stored.metadata.annotations, undefined, 'the round-trip annotations are not stored');

    const strict = await call(suite.server, 'PUT', `${V1}/mixed?fieldValidation=Strict`, { body: { ...v1, spec: { ...v1.spec, metrics: [] }, metadata: { ...v1.metadata, resourceVersion: stored.metadata.resourceVersion } } });
    assert.equal(strict.status, 400);
    assert.match(strict.json().message, /unknown field "spec.metrics"/);
  });

  it('patches in v1 terms, writes status through /status, and watches in v1', async () => {
    const watch = await openWatch(suite.server, `${V1}?watch=1&fieldSelector=metadata.name%3Dweb`);
    try {
      const [added] = await watch.waitForLines(1);
      assert.equal(JSON.parse(added!).object.apiVersion, 'autoscaling/v1');
      const patch = await call(suite.server, 'PATCH', `${V1}/web`, { body: { spec: { targetCPUUtilizationPercentage: 50 } }, contentType: 'application/merge-patch+json' });
      assert.equal(patch.status, 200, patch.body);
      const modified = JSON.parse((await watch.waitForLines(2))[1]!);
      assert.equal(modified.type, 'MODIFIED');
      assert.equal(modified.object.spec.targetCPUUtilizationPercentage, 50);
    } finally {
      watch.close();
    }
    const current = (await call(suite.server, 'GET', `${V1}/web`)).json();
    const status = await call(suite.server, 'PUT', `${V1}/web/status`, { body: { ...current, status: { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 75 } } });
    assert.equal(status.status, 200, status.body);
    assert.deepEqual(status.json().status, { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 75 });
    const stored = (await call(suite.server, 'GET', `${V2}/web`)).json();
    assert.deepEqual(stored.status.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 75 } } }]);
    assert.equal(stored.spec.metrics[0].resource.target.averageUtilization, 50, 'a status write leaves the spec alone');
  });

  it('reports v2 validation for a v1 write, and 404 for what is not there', async () => {
    const bad = await call(suite.server, 'POST', V1, { body: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'bad' }, spec: { scaleTargetRef: ref, maxReplicas: 0 } } });
    assert.equal(bad.status, 422);
    assert.match(bad.json().message, /HorizontalPodAutoscaler.autoscaling "bad" is invalid: .*spec.maxReplicas/);
    assert.equal((await call(suite.server, 'GET', `${V1}/missing`)).status, 404);
    assert.equal((await call(suite.server, 'GET', `${V1}/web/scale`)).status, 404);
  });
});

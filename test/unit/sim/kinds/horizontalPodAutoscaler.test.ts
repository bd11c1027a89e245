// HorizontalPodAutoscalers (autoscaling/v2) over HTTP as kube-apiserver v1.28 checks them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const HPAS = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const hpa = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, ...spec },
});

describe('HorizontalPodAutoscaler validation', () => {
  it('replica bounds: minReplicas at least 1, maxReplicas above 0 and not below minReplicas', async () => {
    assert.deepEqual(causes(await call(suite.server, 'POST', HPAS, { body: hpa('zero', { minReplicas: 0, maxReplicas: 0 }) })), [
      ['FieldValueInvalid', 'spec.minReplicas', 'Invalid value: 0: must be greater than or equal to 1'],
      ['FieldValueInvalid', 'spec.maxReplicas', 'Invalid value: 0: must be greater than 0'],
      ['FieldValueForbidden', 'spec.metrics', 'Forbidden: must specify at least one Object or External metric to support scaling to zero replicas'],
    ]);
    assert.deepEqual(causes(await call(suite.server, 'POST', HPAS, { body: hpa('inverted', { minReplicas: 5, maxReplicas: 2 }) })), [
      ['FieldValueInvalid', 'spec.maxReplicas', 'Invalid value: 2: must be greater than or equal to `minReplicas`'],
    ]);
  });

  it('needs a target to scale, and metrics that say what they measure', async () => {
    const r = await call(suite.server, 'POST', HPAS, {
      body: hpa('metrics', { scaleTargetRef: { kind: 'Deployment' }, metrics: [{ type: 'Resource' }, { type: 'Memory', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 0 } } }] }),
    });
    assert.deepEqual(causes(r), [
      ['FieldValueRequired', 'spec.scaleTargetRef.name', 'Required value'],
      ['FieldValueRequired', 'spec.metrics[0].resource', 'Required value: must populate information for the given metric source'],
      ['FieldValueNotSupported', 'spec.metrics[1].type', 'Unsupported value: "Memory": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"'],
      ['FieldValueInvalid', 'spec.metrics[1].resource.target.averageUtilization', 'Invalid value: 0: must be greater than 0'],
    ]);
  });

  it('scaling behavior: a known select policy, at least one policy, periods within 1800s', async () => {
    const r = await call(suite.server, 'POST', HPAS, {
      body: hpa('behavior', { behavior: { scaleUp: { selectPolicy: 'Average', policies: [{ type: 'Pods', value: 0, periodSeconds: 3600 }] }, scaleDown: { policies: [] } } }),
    });
    assert.deepEqual(causes(r), [
      ['FieldValueNotSupported', 'spec.behavior.scaleUp.selectPolicy', 'Unsupported value: "Average": supported values: "Disabled", "Max", "Min"'],
      ['FieldValueInvalid', 'spec.behavior.scaleUp.policies[0].value', 'Invalid value: 0: must be greater than zero'],
      ['FieldValueInvalid', 'spec.behavior.scaleUp.policies[0].periodSeconds', 'Invalid value: 3600: must be less than or equal to 1800'],
      ['FieldValueRequired', 'spec.behavior.scaleDown.policies', 'Required value: must specify at least one Policy'],
    ]);
  });

  it('a valid autoscaler is stored with the default CPU metric', async () => {
    const r = await call(suite.server, 'POST', HPAS, { body: hpa('ok', {}) });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.json().spec.metrics[0].resource.target.averageUtilization, 80);
  });
});

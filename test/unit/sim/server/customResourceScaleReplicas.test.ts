import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// A custom resource with a scale subresource has its replicas checked on every write, as
// apiextensions does: a negative or too large count is refused in the resource's words, whether it
// comes through the resource, /status or /scale. Messages as kube-apiserver v1.28.4 gave them.

const suite = suiteServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/scale.example.com/v1/namespaces/default/widgets';
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.scale.example.com' },
  spec: {
    group: 'scale.example.com', names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' }, scope: 'Namespaced',
    versions: [{
      name: 'v1', served: true, storage: true,
      subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } }, status: { type: 'object', properties: { replicas: { type: 'integer' } } } } } },
    }],
  },
};
const widget = (name: string, replicas: number) => ({ apiVersion: 'scale.example.com/v1', kind: 'Widget', metadata: { name }, spec: { replicas } });
const merge = (path: string, body: unknown) => call(suite.server, 'PATCH', path, { body, contentType: 'application/merge-patch+json' });

describe('a custom resource\'s scale replicas', () => {
  before(async () => {
    assert.equal((await call(suite.server, 'POST', CRDS, { body: crd })).status, 201);
  });

  it('a create with negative or too many replicas is refused, naming the CRD\'s path', async () => {
    const negative = await call(suite.server, 'POST', WIDGETS, { body: widget('neg', -1) });
    assert.equal(negative.status, 422, negative.body);
    assert.equal(negative.json().message, 'Widget.scale.example.com "neg" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer');
    const big = await call(suite.server, 'POST', WIDGETS, { body: widget('big', 3000000000) });
    assert.equal(big.json().message, 'Widget.scale.example.com "big" is invalid: .spec.replicas: Invalid value: 3000000000: should be less than or equal to 2147483647');
  });

  it('an update, a /status write and a /scale write are checked alike', async () => {
    assert.equal((await call(suite.server, 'POST', WIDGETS, { body: widget('w1', 1) })).status, 201);
    const spec = await merge(`${WIDGETS}/w1`, { spec: { replicas: -2 } });
    assert.equal(spec.json().message, 'Widget.scale.example.com "w1" is invalid: .spec.replicas: Invalid value: -2: should be a non-negative integer');
    const status = await merge(`${WIDGETS}/w1/status`, { status: { replicas: -2 } });
    assert.equal(status.status, 422, status.body);
    assert.equal(status.json().message, 'Widget.scale.example.com "w1" is invalid: .status.replicas: Invalid value: -2: should be a non-negative integer');
    const scale = await merge(`${WIDGETS}/w1/scale`, { spec: { replicas: -2 } });
    assert.equal(scale.status, 422, scale.body);
    assert.equal(scale.json().message, 'Widget.scale.example.com "w1" is invalid: .spec.replicas: Invalid value: -2: should be a non-negative integer');
    assert.equal((await merge(`${WIDGETS}/w1/scale`, { spec: { replicas: 3 } })).status, 200);
  });
});

// An update (PUT) without metadata.resourceVersion: most built-in kinds take it as "overwrite",
// but custom resources, CRDs, Leases and PodDisruptionBudgets refuse it as kube-apiserver does, so
// a controller that PUTs an object it built from scratch fails here as it would in a cluster.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/cu.example.com/v1/namespaces/default/widgets';
const widget = (name: string, size: number, resourceVersion?: string) => ({ apiVersion: 'cu.example.com/v1', kind: 'Widget', metadata: { name, ...(resourceVersion ? { resourceVersion } : {}) }, spec: { size } });

describe('updates without a resourceVersion', () => {
  before(async () => {
    const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
    const body = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.cu.example.com' },
      spec: { group: 'cu.example.com', names: { kind: 'Widget', plural: 'widgets' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { status: {} } }] },
    };
    assert.equal((await call(suite.server, 'POST', CRDS, { body })).status, 201);
    assert.equal((await call(suite.server, 'POST', WIDGETS, { body: widget('w', 1) })).status, 201);
  });

  it('a custom resource\'s is Invalid, named by its resource', async () => {
    for (const path of [`${WIDGETS}/w`, `${WIDGETS}/w/status`]) {
      const r = await call(suite.server, 'PUT', path, { body: widget('w', 2) });
      assert.equal(r.status, 422, path);
      const s = r.json();
      assert.equal(s.message, 'widgets.cu.example.com "w" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
      assert.deepEqual(s.details, { name: 'w', group: 'cu.example.com', kind: 'widgets', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }] });
    }
    const current = (await call(suite.server, 'GET', `${WIDGETS}/w`)).json();
    assert.equal((await call(suite.server, 'PUT', `${WIDGETS}/w`, { body: widget('w', 2, current.metadata.resourceVersion) })).status, 200);
  });

  it('a Lease\'s is refused, a ConfigMap\'s overwrites', async () => {
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'a' } };
    assert.equal((await call(suite.server, 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { body: lease })).status, 201);
    const r = await call(suite.server, 'PUT', '/apis/coordination.k8s.io/v1/namespaces/default/leases/l', { body: { ...lease, spec: { holderIdentity: 'b' } } });
    assert.equal(r.status, 422);
    assert.match(r.json().message, /^leases\.coordination\.k8s\.io "l" is invalid: metadata\.resourceVersion/);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } };
    assert.equal((await call(suite.server, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm })).status, 201);
    assert.equal((await call(suite.server, 'PUT', '/api/v1/namespaces/default/configmaps/c', { body: { ...cm, data: { a: '2' } } })).status, 200);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, type Answer } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// Validation kube-apiserver does that a controller's test meets: RBAC rules without verbs, a user
// PriorityClass above a billion, an HPA scaling to zero on pod metrics, a nodePort out of range, a
// negative quota, an update changing uid, a body of another group's version.

const suite = suiteServer();

function invalid(r: Answer, message: string, fields: string[]): void {
  assert.equal(r.status, 422, r.body);
  assert.equal(r.json().message, message);
  assert.deepEqual(r.json().details.causes.map((c: { field: string }) => c.field), fields);
}

describe('per-kind validation', () => {
  it('a Role rule needs verbs', async () => {
    const r = await call(suite.server, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
      body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'noverbs' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: [] }] },
    });
    invalid(r, 'Role.rbac.authorization.k8s.io "noverbs" is invalid: rules[0].verbs: Required value: verbs must contain at least one value', ['rules[0].verbs']);
  });

  it('a namespaced Role cannot grant non-resource URLs', async () => {
    const r = await call(suite.server, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
      body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'urls' }, rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] },
    });
    invalid(r, 'Role.rbac.authorization.k8s.io "urls" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs', ['rules[0].nonResourceURLs']);
  });

  it('a user PriorityClass may not be above a billion', async () => {
    const r = await call(suite.server, 'POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'too-high' }, value: 2_000_000_000 } });
    invalid(r, 'PriorityClass.scheduling.k8s.io "too-high" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000', ['value']);
  });

  it('an HPA with minReplicas 0 needs an Object or External metric', async () => {
    const r = await call(suite.server, 'POST', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', {
      body: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'zero' }, spec: { minReplicas: 0, maxReplicas: 3, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' } } },
    });
    invalid(r, 'HorizontalPodAutoscaler.autoscaling "zero" is invalid: [spec.minReplicas: Invalid value: 0: must be greater than or equal to 1, spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas]', ['spec.minReplicas', 'spec.metrics']);
  });

  it('a nodePort outside 30000-32767 is refused', async () => {
    const r = await call(suite.server, 'POST', '/api/v1/namespaces/default/services', { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] } } });
    invalid(r, 'Service "np" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767', ['spec.ports[0].nodePort']);
  });

  it('a ResourceQuota may not set a hard limit below zero', async () => {
    const r = await call(suite.server, 'POST', '/api/v1/namespaces/default/resourcequotas', { body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'negative' }, spec: { hard: { pods: '-1' } } } });
    invalid(r, 'ResourceQuota "negative" is invalid: spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0', ['spec.hard[pods]']);
  });

  it('an update may not change uid (the cause twice, as the metadata is validated twice)', async () => {
    assert.equal((await call(suite.server, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'uid' } } })).status, 201);
    const uid = '00000000-0000-0000-0000-000000000001';
    const r = await call(suite.server, 'PATCH', '/api/v1/namespaces/default/configmaps/uid', { body: { metadata: { uid } }, contentType: 'application/merge-patch+json' });
    invalid(r, `ConfigMap "uid" is invalid: metadata.uid: Invalid value: "${uid}": field is immutable`, ['metadata.uid', 'metadata.uid']);
  });

  it('an update may not set or change the deletion grace period, through /status neither, and one left out keeps it', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    assert.equal((await call(suite.server, 'POST', cms, { body: { metadata: { name: 'grace', finalizers: ['example.com/hold'] } } })).status, 201);
    const set = await call(suite.server, 'PATCH', `${cms}/grace`, { body: { metadata: { deletionGracePeriodSeconds: 5, uid: 'abc' } }, contentType: 'application/merge-patch+json' });
    invalid(set, 'ConfigMap "grace" is invalid: [metadata.uid: Invalid value: "abc": field is immutable, metadata.deletionGracePeriodSeconds: Invalid value: 5: field is immutable]',
      ['metadata.uid', 'metadata.deletionGracePeriodSeconds', 'metadata.uid', 'metadata.deletionGracePeriodSeconds']);
    assert.equal((await call(suite.server, 'DELETE', `${cms}/grace`)).status, 200);
    const changed = await call(suite.server, 'PATCH', `${cms}/grace`, { body: { metadata: { deletionGracePeriodSeconds: 30 } }, contentType: 'application/merge-patch+json' });
    invalid(changed, 'ConfigMap "grace" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable', ['metadata.deletionGracePeriodSeconds', 'metadata.deletionGracePeriodSeconds']);
    const cleared = await call(suite.server, 'PATCH', `${cms}/grace`, { body: { metadata: { deletionGracePeriodSeconds: null } }, contentType: 'application/merge-patch+json' });
    assert.equal(cleared.status, 200, cleared.body);
    assert.equal(cleared.json().metadata.deletionGracePeriodSeconds, 0);
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const labels = { app: 'grace' };
    assert.equal((await call(suite.server, 'POST', deployments, { body: { metadata: { name: 'grace' }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } })).status, 201);
    const status = await call(suite.server, 'PATCH', `${deployments}/grace/status`, { body: { metadata: { deletionGracePeriodSeconds: 5 } }, contentType: 'application/merge-patch+json' });
    invalid(status, 'Deployment.apps "grace" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 5: field is immutable', ['metadata.deletionGracePeriodSeconds', 'metadata.deletionGracePeriodSeconds']);
  });

  it('a body of another group\'s version names that version alone', async () => {
    const r = await call(suite.server, 'POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'av' } } });
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" in scheme "pkg/runtime/scheme.go:100"');
  });
});

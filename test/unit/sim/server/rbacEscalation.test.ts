// RBAC's escalation prevention over HTTP: a ServiceAccount that may write Roles and bindings still
// cannot grant what it does not hold itself (kube-apiserver's 403, word for word), unless it has
// the `escalate` or `bind` verb; what it holds it may pass on; the admin is never checked.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, type Answer } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const OPERATOR = 'system:serviceaccount:ops:operator';
const GROUPS = '["system:serviceaccounts" "system:serviceaccounts:ops" "system:authenticated"]';
let token = '';

async function created(path: string, body: unknown): Promise<Answer> {
  const r = await call(suite.server, 'POST', path, { body });
  assert.equal(r.status, 201, `${path}: ${r.body}`);
  return r;
}

const role = (name: string, rules: unknown[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules });
const binding = (name: string, roleRef: { kind: string; name: string }) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef }, subjects: [{ kind: 'ServiceAccount', name: 'app', namespace: 'ops' }],
});
const asOperator = (method: string, path: string, body?: unknown) => call(suite.server, method, path, { token, ...(body === undefined ? {} : { body }) });

/** The operator: it may manage Roles and RoleBindings in its namespace, and read and write ConfigMaps there. */
async function setUp(): Promise<void> {
  await created('/api/v1/namespaces', { metadata: { name: 'ops' } });
  await created('/api/v1/namespaces/ops/serviceaccounts', { metadata: { name: 'operator' } });
  token = (await created('/api/v1/namespaces/ops/serviceaccounts/operator/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} })).json().status.token;
  await created(`${RBAC}/namespaces/ops/roles`, role('operator', [
    // Not `*`: that would hold `escalate` and `bind` too.
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create', 'update'] },
  ]));
  await created(`${RBAC}/namespaces/ops/rolebindings`, { metadata: { name: 'operator' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'operator' }, subjects: [{ kind: 'ServiceAccount', name: 'operator' }] });
  // ClusterRoles the operator does not hold.
  await created(`${RBAC}/clusterroles`, { metadata: { name: 'secret-admin' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'delete'] }] });
  await created(`${RBAC}/clusterroles`, { metadata: { name: 'pod-viewer' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] });
}

describe('escalation prevention', () => {
  before(setUp);

  it('lets a user write a Role with rules it holds, and refuses one granting more, naming what it lacks', async () => {
    assert.equal((await asOperator('POST', `${RBAC}/namespaces/ops/roles`, role('reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]))).status, 201);
    const r = await asOperator('POST', `${RBAC}/namespaces/ops/roles`, role('too-much', [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'delete'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
    ]));
    assert.equal(r.status, 403, r.body);
    assert.deepEqual(r.json(), {
      apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
      message: `roles.rbac.authorization.k8s.io "too-much" is forbidden: user "${OPERATOR}" (groups=${GROUPS}) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}`,
      details: { name: 'too-much', group: 'rbac.authorization.k8s.io', kind: 'roles' },
    });
    assert.equal((await call(suite.server, 'GET', `${RBAC}/namespaces/ops/roles/too-much`)).status, 404, 'nothing stored');
  });

  it('checks updates and patches the same way, but lets owner references and finalizers change', async () => {
    const patched = await call(suite.server, 'PATCH', `${RBAC}/namespaces/ops/roles/reader`, {
      token, contentType: 'application/merge-patch+json', body: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
    });
    assert.equal(patched.status, 403, patched.body);
    assert.match(patched.json().message, /is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["get"\]\}$/);
    // The admin makes it a role the operator does not hold; the operator may still add a finalizer.
    assert.equal((await call(suite.server, 'PATCH', `${RBAC}/namespaces/ops/roles/reader`, { contentType: 'application/merge-patch+json', body: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } })).status, 200);
    const finalizer = await call(suite.server, 'PATCH', `${RBAC}/namespaces/ops/roles/reader`, { token, contentType: 'application/merge-patch+json', body: { metadata: { finalizers: ['example.com/keep'] } } });
    assert.equal(finalizer.status, 200, finalizer.body);
    const label = await call(suite.server, 'PATCH', `${RBAC}/namespaces/ops/roles/reader`, { token, contentType: 'application/merge-patch+json', body: { metadata: { labels: { a: 'b' } } } });
    assert.equal(label.status, 403, 'any other change is checked against the rules');
    await call(suite.server, 'PATCH', `${RBAC}/namespaces/ops/roles/reader`, { contentType: 'application/merge-patch+json', body: { metadata: { finalizers: null } } });
  });

  it('lets a user bind a role whose rules it holds, refuses one it does not, and a missing role is a 404', async () => {
    assert.equal((await call(suite.server, 'POST', `${RBAC}/namespaces/ops/roles`, { body: role('configmap-writer', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'update'] }]) })).status, 201);
    assert.equal((await asOperator('POST', `${RBAC}/namespaces/ops/rolebindings`, binding('app-writes', { kind: 'Role', name: 'configmap-writer' }))).status, 201);
    const admin = await asOperator('POST', `${RBAC}/namespaces/ops/rolebindings`, binding('app-admin', { kind: 'ClusterRole', name: 'secret-admin' }));
    assert.equal(admin.status, 403);
    assert.equal(admin.json().message, `rolebindings.rbac.authorization.k8s.io "app-admin" is forbidden: user "${OPERATOR}" (groups=${GROUPS}) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list" "delete"]}`);
    const ghost = await asOperator('POST', `${RBAC}/namespaces/ops/rolebindings`, binding('app-ghost', { kind: 'Role', name: 'nope' }));
    assert.equal(ghost.status, 404);
    assert.equal(ghost.json().message, 'roles.rbac.authorization.k8s.io "nope" not found');
  });

  it('lets `escalate` and `bind` through, as RBAC does, and never checks the admin', async () => {
    await created(`${RBAC}/namespaces/ops/roles`, role('delegate', [
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['pod-viewer'] },
    ]));
    await created(`${RBAC}/namespaces/ops/rolebindings`, { metadata: { name: 'delegate' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'delegate' }, subjects: [{ kind: 'ServiceAccount', name: 'operator' }] });
    assert.equal((await asOperator('POST', `${RBAC}/namespaces/ops/roles`, role('secrets-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]))).status, 201);
    assert.equal((await asOperator('POST', `${RBAC}/namespaces/ops/rolebindings`, binding('app-views', { kind: 'ClusterRole', name: 'pod-viewer' }))).status, 201);
    assert.equal((await asOperator('POST', `${RBAC}/namespaces/ops/rolebindings`, binding('app-secrets', { kind: 'ClusterRole', name: 'secret-admin' }))).status, 403);
    assert.equal((await call(suite.server, 'POST', `${RBAC}/namespaces/ops/rolebindings`, { body: binding('app-secrets', { kind: 'ClusterRole', name: 'secret-admin' }) })).status, 201);
  });
});

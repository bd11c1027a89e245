// Authorization over HTTP, as a cluster with `--authorization-mode=RBAC` answers: the admin token
// may do anything, a ServiceAccount token or an impersonated user only what the stored
// (Cluster)RoleBindings grant, with kube-apiserver's 403 messages word for word.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, type Answer } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';
import { formatClientsTable } from '../../../../src/cli/clientsTable.ts';

const suite = suiteServer();
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

async function created(path: string, body: unknown): Promise<Answer> {
  const r = await call(suite.server, 'POST', path, { body });
  assert.equal(r.status, 201, `${path}: ${r.body}`);
  return r;
}

/** A ServiceAccount in `namespace` and a token for it. */
async function serviceAccountToken(namespace: string, name: string): Promise<string> {
  await created(`/api/v1/namespaces/${namespace}/serviceaccounts`, { metadata: { name } });
  const r = await created(`/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
  return r.json().status.token;
}

async function namespace(name: string): Promise<void> {
  await created('/api/v1/namespaces', { metadata: { name } });
}

async function role(namespace: string, name: string, rules: unknown[]): Promise<void> {
  await created(`${RBAC}/namespaces/${namespace}/roles`, { metadata: { name }, rules });
}

async function roleBinding(namespace: string, name: string, roleRef: { kind: string; name: string }, subjects: unknown[]): Promise<void> {
  await created(`${RBAC}/namespaces/${namespace}/rolebindings`, { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef }, subjects });
}

function assertForbidden(r: Answer, message: string, details: Record<string, string>): void {
  assert.equal(r.status, 403, r.body);
  assert.deepEqual(r.json(), { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 });
}

describe('a ServiceAccount token', () => {
  it('may do nothing until bound: 403 with what it cannot do, then what its Role allows and no more', async () => {
    await namespace('team');
    await created('/api/v1/namespaces/team/configmaps', { metadata: { name: 'settings' } });
    const token = await serviceAccountToken('team', 'bot');
    const list = () => call(suite.server, 'GET', '/api/v1/namespaces/team/configmaps', { token });
    assertForbidden(await list(), 'configmaps is forbidden: User "system:serviceaccount:team:bot" cannot list resource "configmaps" in API group "" in the namespace "team"', { kind: 'configmaps' });

    await role('team', 'cm-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]);
    await roleBinding('team', 'bot-reads', { kind: 'Role', name: 'cm-reader' }, [{ kind: 'ServiceAccount', name: 'bot', namespace: 'team' }]);
    const allowed = await list();
    assert.equal(allowed.status, 200, allowed.body);
    assert.deepEqual(allowed.json().items.map((cm: { metadata: { name: string } }) => cm.metadata.name), ['settings']);

    assertForbidden(
      await call(suite.server, 'POST', '/api/v1/namespaces/team/configmaps', { token, body: { metadata: { name: 'x' } } }),
      'configmaps is forbidden: User "system:serviceaccount:team:bot" cannot create resource "configmaps" in API group "" in the namespace "team"',
      { kind: 'configmaps' },
    );
    assertForbidden(
      await call(suite.server, 'GET', '/api/v1/configmaps', { token }),
      'configmaps is forbidden: User "system:serviceaccount:team:bot" cannot list resource "configmaps" in API group "" at the cluster scope',
      { kind: 'configmaps' },
    );
    assertForbidden(
      await call(suite.server, 'GET', '/api/v1/namespaces/team/pods?watch=1&fieldSelector=metadata.name%3Dweb', { token }),
      'pods "web" is forbidden: User "system:serviceaccount:team:bot" cannot watch resource "pods" in API group "" in the namespace "team"',
      { name: 'web', kind: 'pods' },
    );
  });

  it('reaches discovery, OpenAPI, /version and health as every authenticated user does (the bootstrap bindings)', async () => {
    const token = await serviceAccountToken('default', 'reader');
    for (const path of ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/openapi/v2', '/version', '/healthz', '/readyz']) {
      assert.equal((await call(suite.server, 'GET', path, { token })).status, 200, path);
    }
    assertForbidden(await call(suite.server, 'GET', '/controller-lab/admin/clients', { token }), 'forbidden: User "system:serviceaccount:default:reader" cannot get path "/controller-lab/admin/clients"', {});
    assertForbidden(
      await call(suite.server, 'GET', '/apis/example.com/v1/widgets', { token }),
      'widgets.example.com is forbidden: User "system:serviceaccount:default:reader" cannot list resource "widgets" in API group "example.com" at the cluster scope',
      { group: 'example.com', kind: 'widgets' },
    );
  });

  it('gets what a ClusterRole bound in one namespace grants there: the aggregated edit role, subresources by `*/scale`, resourceNames', async () => {
    await namespace('apps');
    const token = await serviceAccountToken('apps', 'deployer');
    await roleBinding('apps', 'deployer-edits', { kind: 'ClusterRole', name: 'edit' }, [{ kind: 'ServiceAccount', name: 'deployer' }]);
    const deployment = { metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    // The edit role's rules come from the roles aggregated into it by the controller manager.
    const deadline = Date.now() + 10_000;
    let create: Answer;
    while ((create = await call(suite.server, 'POST', '/apis/apps/v1/namespaces/apps/deployments', { token, body: deployment })).status === 403 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(create.status, 201, create.body);
    assertForbidden(
      await call(suite.server, 'POST', '/apis/apps/v1/namespaces/default/deployments', { token, body: deployment }),
      'deployments.apps is forbidden: User "system:serviceaccount:apps:deployer" cannot create resource "deployments" in API group "apps" in the namespace "default"',
      { group: 'apps', kind: 'deployments' },
    );

    const scaler = await serviceAccountToken('apps', 'scaler');
    await role('apps', 'scale-web', [
      { apiGroups: ['apps'], resources: ['*/scale'], verbs: ['get'] },
      { apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'], verbs: ['get'] },
    ]);
    await roleBinding('apps', 'scaler', { kind: 'Role', name: 'scale-web' }, [{ kind: 'ServiceAccount', name: 'scaler', namespace: 'apps' }]);
    assert.equal((await call(suite.server, 'GET', '/apis/apps/v1/namespaces/apps/deployments/web/scale', { token: scaler })).status, 200);
    assertForbidden(
      await call(suite.server, 'GET', '/apis/apps/v1/namespaces/apps/deployments/web', { token: scaler }),
      'deployments.apps "web" is forbidden: User "system:serviceaccount:apps:scaler" cannot get resource "deployments" in API group "apps" in the namespace "apps"',
      { name: 'web', group: 'apps', kind: 'deployments' },
    );
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/apps/configmaps/settings', { token: scaler })).status, 404, 'allowed, then not found');
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/apps/configmaps/other', { token: scaler })).status, 403);
  });

  it('is told in the 403 about a binding whose role does not exist (as RBAC appends it)', async () => {
    const token = await serviceAccountToken('default', 'orphan');
    await roleBinding('default', 'orphan-binding', { kind: 'Role', name: 'missing' }, [{ kind: 'ServiceAccount', name: 'orphan' }]);
    await created(`${RBAC}/clusterrolebindings`, { metadata: { name: 'orphan-cluster' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'missing-too' }, subjects: [{ kind: 'ServiceAccount', name: 'orphan', namespace: 'default' }] });
    assertForbidden(
      await call(suite.server, 'GET', '/api/v1/namespaces/default/secrets', { token }),
      'secrets is forbidden: User "system:serviceaccount:default:orphan" cannot list resource "secrets" in API group "" in the namespace "default": RBAC: [clusterrole.rbac.authorization.k8s.io "missing-too" not found, role.rbac.authorization.k8s.io "missing" not found]',
      { kind: 'secrets' },
    );
  });
});

describe('client insight', () => {
  it('tells a client acting as another user from the admin with the same user agent, and `sim clients` says as whom', async () => {
    const agent = 'kubectl/v1.28.4 (linux/amd64) kubernetes/test';
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/team/configmaps', { headers: { 'User-Agent': agent } })).status, 200);
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/team/configmaps', { headers: { 'User-Agent': agent, 'Impersonate-User': 'system:serviceaccount:team:bot' } })).status, 200);
    const mine = suite.cluster.clients.clients().filter((c) => c.userAgent === agent);
    assert.deepEqual(mine.map((c) => c.user).sort(), ['system:serviceaccount:team:bot', undefined]);
    assert.match(formatClientsTable(mine, Date.now()), new RegExp(`^${agent.replace(/[().]/g, '\\$&')} as system:serviceaccount:team:bot\\s`, 'm'));
  });
});

describe('impersonation (kubectl --as, --as-group)', () => {
  const whoami = (headers: Record<string, string>, token?: string) =>
    call(suite.server, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { headers, ...(token ? { token } : {}), body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });

  it('lets the admin act as any user, who then gets only what RBAC grants that user', async () => {
    assertForbidden(
      await call(suite.server, 'GET', '/api/v1/nodes', { headers: { 'Impersonate-User': 'jane' } }),
      'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope',
      { kind: 'nodes' },
    );
    assert.equal((await call(suite.server, 'GET', '/api/v1/nodes', { headers: { 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters' } })).status, 200);
    const jane = await whoami({ 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs', 'Impersonate-Extra-Scopes': 'view', 'Impersonate-Uid': 'u-1' });
    assert.equal(jane.status, 201, jane.body);
    assert.deepEqual(jane.json().status.userInfo, { username: 'jane', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['view'] } });
  });

  it('acting as a ServiceAccount brings its groups, as its own token would', async () => {
    const r = await whoami({ 'Impersonate-User': 'system:serviceaccount:team:bot' });
    assert.deepEqual(r.json().status.userInfo, { username: 'system:serviceaccount:team:bot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] });
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/team/configmaps', { headers: { 'Impersonate-User': 'system:serviceaccount:team:bot' } })).status, 200);
  });

  it('is refused to a caller without the impersonate verb, and groups without a user are a 500 as kube-apiserver answers', async () => {
    const token = await serviceAccountToken('default', 'pretender');
    assertForbidden(
      await call(suite.server, 'GET', '/api/v1/namespaces/default/pods', { token, headers: { 'Impersonate-User': 'jane' } }),
      'users "jane" is forbidden: User "system:serviceaccount:default:pretender" cannot impersonate resource "users" in API group "" at the cluster scope',
      { name: 'jane', kind: 'users' },
    );
    const groupsOnly = await call(suite.server, 'GET', '/api/v1/pods', { headers: { 'Impersonate-Group': 'g1' } });
    assert.equal(groupsOnly.status, 500);
    assert.equal(groupsOnly.body, 'Internal Server Error: "/api/v1/pods": requested [{Group  g1    }] without impersonating a user\n');
  });
});

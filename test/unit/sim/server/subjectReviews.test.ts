// The reviews a delegating authenticator and authorizer send (kube-rbac-proxy, controller-runtime's
// authorized metrics endpoint, webhook servers): TokenReview, SubjectAccessReview and
// LocalSubjectAccessReview, plus the self reviews asked as someone else, answered over HTTP from the
// cluster's own tokens and RBAC as kube-apiserver v1.28 answers them.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, type Answer } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

/** The answer without its managedFields (unstoredAnswersManagedFields.test.ts covers them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function unmanaged(answer: any): any {
  if (answer?.metadata) delete answer.metadata.managedFields;
  return answer;
}

const suite = suiteServer();
const TR = '/apis/authentication.k8s.io/v1/tokenreviews';
const SAR = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
const lsar = (ns: string) => `/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`;
const BOT = 'system:serviceaccount:default:bot';

async function created(path: string, body: unknown): Promise<Answer> {
  const r = await call(suite.server, 'POST', path, { body });
  assert.equal(r.status, 201, `${path}: ${r.body}`);
  return r;
}

async function token(spec: Record<string, unknown> = {}): Promise<string> {
  return (await created('/api/v1/namespaces/default/serviceaccounts/bot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec })).json().status.token;
}

let botUid = '';

/** The bot ServiceAccount and its Role, made once for every suite below. */
async function setUp(): Promise<void> {
  if (botUid) return;
  botUid = (await created('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'bot' } })).json().metadata.uid;
  await created('/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] });
  await created('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
    metadata: { name: 'bot-reads' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'default' }],
  });
}

describe('TokenReview', () => {
  before(setUp);
  const review = (spec: Record<string, unknown>) => call(suite.server, 'POST', TR, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec } });

  it('authenticates a ServiceAccount token as its user, uid and groups, for the API server\'s audience', async () => {
    const presented = await token();
    const r = await review({ token: presented });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(unmanaged(r.json()), {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: { creationTimestamp: null }, spec: { token: presented },
      status: { authenticated: true, user: { username: BOT, uid: botUid, groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] }, audiences: ['https://kubernetes.default.svc.cluster.local'] },
    });
  });

  it('tells the Pod a bound token belongs to in the extras, and stops authenticating it once the Pod is gone', async () => {
    const pod = (await created('/api/v1/namespaces/default/pods', { metadata: { name: 'runner' }, spec: { serviceAccountName: 'bot', containers: [{ name: 'c', image: 'busybox' }] } })).json();
    const bound = await token({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'runner', uid: pod.metadata.uid } });
    const r = await review({ token: bound });
    assert.deepEqual(r.json().status.user.extra, { 'authentication.kubernetes.io/pod-name': ['runner'], 'authentication.kubernetes.io/pod-uid': [pod.metadata.uid] });
    assert.equal((await call(suite.server, 'DELETE', '/api/v1/namespaces/default/pods/runner?gracePeriodSeconds=0')).status, 200);
    assert.deepEqual((await review({ token: bound })).json().status, { user: {}, error: 'invalid bearer token' });
  });

  it('checks audiences: a token for another audience is refused with the reason kube-apiserver gives; asked for its own, it passes', async () => {
    const vault = await token({ audiences: ['vault'] });
    assert.deepEqual((await review({ token: vault })).json().status, {
      user: {},
      error: '[invalid bearer token, token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]]',
    });
    const asked = (await review({ token: vault, audiences: ['vault', 'other'] })).json().status;
    assert.equal(asked.authenticated, true);
    assert.deepEqual(asked.audiences, ['vault']);
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps', { token: vault })).status, 401, 'not a token for the API server');
  });

  it('authenticates the server\'s own token as the admin; anything else is unauthenticated; no token is a 400', async () => {
    const admin = (await review({ token: suite.server.token })).json().status;
    assert.deepEqual(admin.user, { username: 'controller-lab', groups: ['system:masters', 'system:authenticated'] });
    assert.deepEqual((await review({ token: 'not-a-token' })).json().status, { user: {}, error: 'invalid bearer token' });
    const empty = await review({});
    assert.equal(empty.status, 400);
    assert.equal(empty.json().message, 'token is required for TokenReview in authentication');
  });

  it('is allowed to callers RBAC lets create tokenreviews (system:auth-delegator), not to others', async () => {
    const presented = await token();
    const denied = await call(suite.server, 'POST', TR, { token: presented, body: { spec: { token: presented } } });
    assert.equal(denied.status, 403);
    assert.equal(denied.json().message, `tokenreviews.authentication.k8s.io is forbidden: User "${BOT}" cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope`);
  });
});

describe('SubjectAccessReview and LocalSubjectAccessReview', () => {
  before(setUp);
  const ask = (path: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
    call(suite.server, 'POST', path, { body: { apiVersion: 'authorization.k8s.io/v1', kind: path.includes('local') ? 'LocalSubjectAccessReview' : 'SubjectAccessReview', metadata, spec } });

  it('says whether a user may do something and which binding allows it', async () => {
    const allowed = await ask(SAR, { user: BOT, groups: ['system:serviceaccounts'], resourceAttributes: { namespace: 'default', verb: 'list', resource: 'configmaps' } });
    assert.equal(allowed.status, 201, allowed.body);
    assert.deepEqual(allowed.json().status, { allowed: true, reason: 'RBAC: allowed by RoleBinding "bot-reads/default" of Role "cm-reader" to ServiceAccount "bot/default"' });
    assert.deepEqual((await ask(SAR, { user: BOT, resourceAttributes: { namespace: 'default', verb: 'delete', resource: 'configmaps' } })).json().status, { allowed: false });
    // extra is a map of string lists (Go's ExtraValue), as a delegating authorizer sends the caller's.
    const withExtra = await ask(SAR, { user: BOT, extra: { 'authentication.kubernetes.io/pod-name': ['runner'] }, resourceAttributes: { namespace: 'default', verb: 'get', resource: 'configmaps' } });
    assert.equal(withExtra.status, 201, withExtra.body);
    assert.deepEqual(withExtra.json().spec.extra, { 'authentication.kubernetes.io/pod-name': ['runner'] });
    const badExtra = await ask(SAR, { user: BOT, extra: { k: 'v' }, resourceAttributes: { verb: 'get', resource: 'pods' } });
    assert.equal(badExtra.status, 400);
    assert.equal(badExtra.json().message, 'SubjectAccessReview in version "v1" cannot be handled as a SubjectAccessReview: json: cannot unmarshal string into Go struct field SubjectAccessReviewSpec.spec.extra of type v1.ExtraValue');
    const unknownField = await ask(SAR, { user: BOT, bogus: 1, resourceAttributes: { verb: 'get', resource: 'pods' } });
    assert.equal(unknownField.status, 201);
    assert.equal(unknownField.headers['warning'], '299 - "unknown field \\"spec.bogus\\""');
    assert.deepEqual((await ask(SAR, { user: 'root', groups: ['system:masters'], nonResourceAttributes: { verb: 'get', path: '/metrics' } })).json().status, { allowed: true });
    const discovery = (await ask(SAR, { groups: ['system:authenticated'], nonResourceAttributes: { verb: 'get', path: '/apis/apps' } })).json().status;
    assert.deepEqual(discovery, { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' });
  });

  it('refuses a review without a user or group, or with both kinds of attributes, as kube-apiserver words it', async () => {
    const r = await ask(SAR, { nonResourceAttributes: { path: '/x', verb: 'get' } });
    assert.equal(r.status, 422);
    assert.deepEqual(r.json().message, '.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified');
  });

  it('asks within the namespace of its path: another namespace in the spec is a 422, non-resource attributes too', async () => {
    const allowed = await ask(lsar('default'), { user: BOT, resourceAttributes: { namespace: 'default', verb: 'get', resource: 'configmaps' } });
    assert.equal(allowed.status, 201, allowed.body);
    assert.equal(allowed.json().metadata.namespace, 'default');
    assert.equal(allowed.json().status.allowed, true);
    const elsewhere = await ask(lsar('default'), { user: BOT, resourceAttributes: { namespace: 'other', verb: 'get', resource: 'pods' } }, { namespace: 'default' });
    assert.equal(elsewhere.status, 422);
    assert.equal(elsewhere.json().message, '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace');
    const nonResource = await ask(lsar('default'), { user: BOT, nonResourceAttributes: { verb: 'get', path: '/x' } });
    assert.equal(nonResource.json().message, '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request');
  });
});

describe('self reviews asked as someone else', () => {
  before(setUp);
  it('`kubectl auth can-i --as` answers for the impersonated user, `--list` lists that user\'s rules', async () => {
    const headers = { 'Impersonate-User': BOT };
    const canI = await call(suite.server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { headers, body: { spec: { resourceAttributes: { namespace: 'default', verb: 'list', resource: 'configmaps' } } } });
    assert.equal(canI.json().status.allowed, true);
    const cannot = await call(suite.server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { headers, body: { spec: { resourceAttributes: { namespace: 'default', verb: 'list', resource: 'secrets' } } } });
    assert.deepEqual(cannot.json().status, { allowed: false });
    const rules = await call(suite.server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { headers, body: { spec: { namespace: 'default' } } });
    assert.ok(rules.json().status.resourceRules.some((r: { resources: string[]; verbs: string[] }) => r.resources.includes('configmaps') && r.verbs.join() === 'get,list'), rules.body);
    const elsewhere = await call(suite.server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { headers, body: { spec: { namespace: 'kube-system' } } });
    assert.ok(!elsewhere.json().status.resourceRules.some((r: { resources: string[] }) => r.resources.includes('configmaps')));
  });
});

// serviceaccounts/token over HTTP: a TokenRequest answered with a JWT for the ServiceAccount and its
// expiry, spec defaulted and validated as kube-apiserver does, and the token accepted as a bearer
// token while its ServiceAccount lives.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

/** The answer without its managedFields (unstoredAnswersManagedFields.test.ts covers them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function unmanaged(answer: any): any {
  if (answer?.metadata) delete answer.metadata.managedFields;
  return answer;
}

const suite = suiteServer();
const SAS = '/api/v1/namespaces/default/serviceaccounts';

function requestToken(name: string, spec: Record<string, unknown> = {}) {
  return call(suite.server, 'POST', `${SAS}/${name}/token`, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec } });
}

function claims(jwt: string): Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const [header, payload, signature] = jwt.split('.');
  assert.ok(header && payload && signature, `not a JWT: ${jwt}`);
  return { header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')), ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) };
}

describe('serviceaccounts/token', () => {
  it('answers 201 with a token for the ServiceAccount, an hour by default, for the API server\'s audience', async () => {
    const sa = await call(suite.server, 'POST', SAS, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } } });
    assert.equal(sa.status, 201);
    const r = await requestToken('robot');
    assert.equal(r.status, 201, r.body);
    const answer = r.json();
    assert.equal(answer.kind, 'TokenRequest');
    assert.equal(answer.apiVersion, 'authentication.k8s.io/v1');
    assert.deepEqual(unmanaged(answer).metadata, { name: 'robot', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' });
    assert.deepEqual(answer.spec, { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600, boundObjectRef: null });
    assert.equal(answer.status.expirationTimestamp, '2026-01-01T01:00:00Z');
    const c = claims(answer.status.token);
    assert.equal(c['sub'], 'system:serviceaccount:default:robot');
    assert.deepEqual(c['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'robot', uid: sa.json().metadata.uid } });
    assert.equal(c['exp'] - c['iat'], 3600);
    assert.deepEqual(c['aud'], ['https://kubernetes.default.svc.cluster.local']);
  });

  it('honours spec.expirationSeconds and audiences; under 10 minutes is a 422 as the API server validates', async () => {
    const r = await requestToken('robot', { expirationSeconds: 7200, audiences: ['vault'] });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.json().status.expirationTimestamp, '2026-01-01T02:00:00Z');
    assert.deepEqual(claims(r.json().status.token)['aud'], ['vault']);
    const short = await requestToken('robot', { expirationSeconds: 300 });
    assert.equal(short.status, 422);
    assert.equal(short.json().message, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes');
  });

  it('answers 404 for a ServiceAccount that does not exist', async () => {
    const r = await requestToken('ghost');
    assert.equal(r.status, 404);
    assert.equal(r.json().message, 'serviceaccounts "ghost" not found');
  });

  it('issues tokens the server authenticates as their ServiceAccount until it is deleted', async () => {
    assert.equal((await call(suite.server, 'POST', SAS, { body: { metadata: { name: 'short-lived' } } })).status, 201);
    const token = (await requestToken('short-lived')).json().status.token as string;
    // Authenticated as the ServiceAccount, which RBAC lets do nothing yet: 403, not 401.
    const unbound = await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps', { token });
    assert.equal(unbound.status, 403);
    assert.match(unbound.json().message, /User "system:serviceaccount:default:short-lived" cannot list/);
    const binding = { metadata: { name: 'short-lived-views' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'ServiceAccount', name: 'short-lived', namespace: 'default' }] };
    assert.equal((await call(suite.server, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { body: binding })).status, 201);
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps', { token })).status, 200);
    const forged = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(43)}`;
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps', { token: forged })).status, 401);
    assert.equal((await call(suite.server, 'DELETE', `${SAS}/short-lived`)).status, 200);
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps', { token })).status, 401);
  });
});

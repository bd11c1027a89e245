// The reviews `kubectl auth can-i` and `kubectl auth whoami` send, as the admin, over HTTP: 201 with the answer,
// 400/422 for bodies a real server refuses, 405 for anything but POST, and nothing ever stored.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { call } from './httpClient.ts';

/** The answer without its managedFields (unstoredAnswersManagedFields.test.ts covers them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function unmanaged(answer: any): any {
  if (answer?.metadata) delete answer.metadata.managedFields;
  return answer;
}

const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const SSRR = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
const SSR = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

let clock: FakeClock;
let cluster: SimCluster;
let server: SimServerHandle;

before(async () => {
  clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  cluster = createSimCluster({ clock });
  server = await startSimServer(cluster, { insecureHttp: true });
});

after(async () => {
  await server.stop();
  await cluster.close();
});

/** What kubectl auth can-i create pods sends. */
const canICreatePods = {
  kind: 'SelfSubjectAccessReview',
  apiVersion: 'authorization.k8s.io/v1',
  metadata: { creationTimestamp: null },
  spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } },
  status: { allowed: false },
};

describe('SelfSubjectAccessReview', () => {
  it('asked for only as a Table is 406: a review has no table form; JSON beside it is still answered', async () => {
    const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
    const refused = await call(server, 'POST', SSAR, { body: canICreatePods, accept: table });
    assert.equal(refused.status, 406, refused.body);
    assert.equal(refused.json().reason, 'NotAcceptable');
    const answered = await call(server, 'POST', SSAR, { body: canICreatePods, accept: `${table}, application/json` });
    assert.equal(answered.status, 201, answered.body);
    assert.equal(answered.json().kind, 'SelfSubjectAccessReview');
  });

  it('allows everything: 201 with the submitted review and status.allowed true', async () => {
    const r = await call(server, 'POST', SSAR, { body: canICreatePods });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(unmanaged(r.json()), { ...canICreatePods, status: { allowed: true } });
    const nonResource = await call(server, 'POST', SSAR, { body: { spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } } });
    assert.equal(nonResource.status, 201);
    assert.deepEqual(unmanaged(nonResource.json()), {
      kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null },
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } }, status: { allowed: true },
    });
  });

  it('needs exactly one of resourceAttributes and nonResourceAttributes (422 Invalid, as the real validation says)', async () => {
    const none = await call(server, 'POST', SSAR, { body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: {} } });
    assert.equal(none.status, 422);
    assert.equal(none.json().reason, 'Invalid');
    // kube-apiserver v1.28 names no kind here: the decoded review's kind is empty when it is validated.
    assert.equal(none.json().message, '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
    assert.deepEqual(none.json().details, { group: 'authorization.k8s.io', causes: [{ reason: 'FieldValueInvalid', field: 'spec.resourceAttributes', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified' }] });
    const both = await call(server, 'POST', SSAR, { body: { spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/', verb: 'get' } } } });
    assert.equal(both.status, 422);
    assert.equal(both.json().message, '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/", Verb:"get"}: cannot be specified in combination with resourceAttributes');
  });

  it('refuses bodies that are not a SelfSubjectAccessReview with 400 BadRequest', async () => {
    for (const [body, message] of [
      ['{not json', /^the object provided is unrecognized \(must be of type SelfSubjectAccessReview\): couldn't get version\/kind; json parse error: invalid character 'n' looking for beginning of object key string/],
      ['[1,2]', /json parse error: json: cannot unmarshal array into Go value of type struct/],
      [{ kind: 'ConfigMap', apiVersion: 'authorization.k8s.io/v1', spec: {} }, /the kind in the data \(ConfigMap\) does not match the expected kind \(SelfSubjectAccessReview\)/],
      [{ kind: 'SelfSubjectAccessReview', apiVersion: 'v1', spec: {} }, /the API version in the data \(v1\) does not match the expected API version \(authorization\.k8s\.io\/v1\)/],
      [{ metadata: 'x', spec: {} }, /metadata must be an object/],
    ] as const) {
      const r = await call(server, 'POST', SSAR, { body });
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.body}`);
      assert.equal(r.json().kind, 'Status');
      assert.equal(r.json().reason, 'BadRequest');
      assert.match(r.json().message, message);
    }
  });

  it('answers anything but POST with 405 MethodNotAllowed, and a name or namespace in the path with 404', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const r = await call(server, method, SSAR);
      assert.equal(r.status, 405, method);
      assert.equal(r.json().reason, 'MethodNotAllowed');
    }
    assert.equal((await call(server, 'GET', `${SSAR}?watch=1`)).status, 405);
    assert.equal((await call(server, 'POST', `${SSAR}/mine`, { body: canICreatePods })).status, 404);
    assert.equal((await call(server, 'POST', '/apis/authorization.k8s.io/v1/namespaces/default/selfsubjectaccessreviews', { body: canICreatePods })).status, 404);
  });
});

describe('SelfSubjectRulesReview', () => {
  it('lists the rules RBAC grants the caller: for the admin, cluster-admin\'s `*` and every authenticated user\'s (what `kubectl auth can-i --list` prints)', async () => {
    const r = await call(server, 'POST', SSRR, { body: { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { namespace: 'default' }, status: { resourceRules: null, nonResourceRules: null, incomplete: false } } });
    assert.equal(r.status, 201, r.body);
    const answer = r.json();
    assert.deepEqual({ ...unmanaged(answer), status: undefined }, { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: {}, status: undefined });
    assert.equal(answer.status.incomplete, false);
    assert.deepEqual(answer.status.resourceRules[0], { verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
    assert.deepEqual(answer.status.nonResourceRules[0], { verbs: ['*'], nonResourceURLs: ['*'] });
    assert.ok(answer.status.resourceRules.some((rule: { resources: string[] }) => rule.resources.includes('selfsubjectaccessreviews')), 'system:basic-user');
    assert.ok(answer.status.nonResourceRules.some((rule: { nonResourceURLs: string[] }) => rule.nonResourceURLs.includes('/healthz')), 'system:public-info-viewer');
  });

  it('needs a namespace (400 "no namespace on request", as the real server says)', async () => {
    const r = await call(server, 'POST', SSRR, { body: { spec: {} } });
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'no namespace on request');
  });
});

describe('SelfSubjectReview', () => {
  it('says who the token stands for: controller-lab, a cluster admin (what `kubectl auth whoami` prints)', async () => {
    const r = await call(server, 'POST', SSR, { body: { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, status: { userInfo: {} } } });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(unmanaged(r.json()), {
      kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: '2026-01-01T00:00:00Z' },
      status: { userInfo: { username: 'controller-lab', groups: ['system:masters', 'system:authenticated'] } },
    });
  });

  it('still demands the token: without it the answer is 401, not a review', async () => {
    const r = await call(server, 'POST', SSR, { body: {}, token: null });
    assert.equal(r.status, 401);
  });
});

describe('reviews leave no trace', () => {
  it('no resourceVersion moves (so no watch can see one) and no table is made for them', async () => {
    const rv = cluster.resourceVersion;
    for (const path of [SSAR, SSRR, SSR]) {
      assert.equal((await call(server, 'POST', path, { body: { spec: { namespace: 'default', resourceAttributes: { verb: 'get', resource: 'pods' } } } })).status, 201, path);
    }
    assert.equal(cluster.resourceVersion, rv);
    assert.ok(!cluster.stats().resources.some((t) => t.resource.startsWith('self')), 'no table was made for a review');
  });
});

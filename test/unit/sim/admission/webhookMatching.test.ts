// Which writes reach a webhook: its rules (operations, resources, `resource/subresource`, scope),
// its namespace selector (the namespace's labels), its object selector (new or old object's
// labels); webhook configurations themselves never reach one. A Service reference is called at
// the Service's Endpoints, with the TLS name `<service>.<namespace>.svc`.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admissionSuite, call, configMap, configure, unconfigureAll, webhook } from './webhookServer.ts';

const s = admissionSuite(['hooks.webhooks.svc']);

afterEach(async () => {
  await unconfigureAll(s.sim);
  s.webhook.reviews.length = 0;
});

const deny = { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'no' } };

async function namespace(name: string, labels: Record<string, string>): Promise<void> {
  const r = await call(s.sim, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } } });
  assert.equal(r.status, 201, r.body);
}

describe('webhook matching', () => {
  it('namespaceSelector: only objects in namespaces whose labels match', async () => {
    await namespace('guarded', { guard: 'on' });
    await namespace('open', { guard: 'off' });
    s.webhook.on('/deny', () => deny);
    await configure(s.sim, 'validating', 'guard', [webhook('guard.example.com', `${s.webhook.url}/deny`, s.webhook.caBundle, { namespaceSelector: { matchLabels: { guard: 'on' } } })]);

    assert.equal((await call(s.sim, 'POST', '/api/v1/namespaces/guarded/configmaps', { body: configMap('x') })).status, 403);
    assert.equal((await call(s.sim, 'POST', '/api/v1/namespaces/open/configmaps', { body: configMap('x') })).status, 201);
  });

  it('objectSelector: the new object\'s labels, or the old one\'s on update', async () => {
    s.webhook.on('/deny', () => deny);
    await call(s.sim, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('was-locked', { a: '1' }, { locked: 'true' }) });
    await configure(s.sim, 'validating', 'lock', [webhook('lock.example.com', `${s.webhook.url}/deny`, s.webhook.caBundle, {
      objectSelector: { matchExpressions: [{ key: 'locked', operator: 'In', values: ['true'] }] },
    })]);

    assert.equal((await call(s.sim, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('plain') })).status, 201);
    assert.equal((await call(s.sim, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('locked', { a: '1' }, { locked: 'true' }) })).status, 403);
    // Taking the label off is an update whose old object matches: still refused.
    const unlock = await call(s.sim, 'PATCH', '/api/v1/namespaces/default/configmaps/was-locked', {
      body: { metadata: { labels: { locked: null } } }, contentType: 'application/merge-patch+json',
    });
    assert.equal(unlock.status, 403, unlock.body);
  });

  it('rules: operations, resources and subresources, scope', async () => {
    s.webhook.on('/deny', () => deny);
    await configure(s.sim, 'validating', 'rules', [webhook('rules.example.com', `${s.webhook.url}/deny`, s.webhook.caBundle, {
      rules: [
        { operations: ['UPDATE'], apiGroups: [''], apiVersions: ['*'], resources: ['configmaps'] },
        { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['pods/status'] },
        { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*'], scope: 'Cluster' },
      ],
    })]);

    // CREATE of a ConfigMap: the UPDATE rule does not match, the Cluster-scoped one neither.
    const cm = await call(s.sim, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('rules') });
    assert.equal(cm.status, 201, cm.body);
    const update = await call(s.sim, 'PUT', '/api/v1/namespaces/default/configmaps/rules', { body: { ...cm.json(), data: { a: '2' } } });
    assert.equal(update.status, 403, update.body);
    assert.equal(s.webhook.reviews.at(-1).request.operation, 'UPDATE');
    assert.equal(s.webhook.reviews.at(-1).request.oldObject.data.a, '1');

    // Cluster-scoped CREATE in the core group: a Namespace.
    assert.equal((await call(s.sim, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'refused' } } })).status, 403);

    // pods/status matches writes to /status only.
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
    const created = await call(s.sim, 'POST', '/api/v1/namespaces/default/pods', { body: pod });
    assert.equal(created.status, 201, created.body);
    const status = await call(s.sim, 'PUT', '/api/v1/namespaces/default/pods/p/status', { body: { ...created.json(), status: { phase: 'Running' } } });
    assert.equal(status.status, 403, status.body);
    const last = s.webhook.reviews.at(-1).request;
    assert.equal(last.subResource, 'status');
    assert.equal(last.requestSubResource, 'status');
    assert.equal(last.object.status.phase, 'Running');
  });

  it('never sends webhook configurations to a webhook', async () => {
    s.webhook.on('/deny', () => deny);
    await configure(s.sim, 'validating', 'everything', [webhook('everything.example.com', `${s.webhook.url}/deny`, s.webhook.caBundle, {
      rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
    })]);
    // It refuses everything else; were its own configuration's removal refused too, it could never go.
    assert.equal((await call(s.sim, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('refused') })).status, 403);
    const removed = await call(s.sim, 'DELETE', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/everything');
    assert.equal(removed.status, 200, removed.body);
    assert.equal(s.webhook.reviews.length, 1);
    assert.equal(s.webhook.reviews[0].request.kind.kind, 'ConfigMap');
  });

  it('calls a Service reference at its Endpoints, verifying the certificate for <name>.<namespace>.svc', async () => {
    await namespace('webhooks', {});
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'hooks' }, spec: { ports: [{ name: 'https', port: 443, targetPort: 9443 }] } };
    assert.equal((await call(s.sim, 'POST', '/api/v1/namespaces/webhooks/services', { body: service })).status, 201);
    const client = { service: { namespace: 'webhooks', name: 'hooks', path: '/deny' }, caBundle: s.webhook.caBundle };
    s.webhook.on('/deny', () => deny);
    await configure(s.sim, 'validating', 'by-service', [{ ...webhook('svc.example.com', '', ''), clientConfig: client }]);

    const noEndpoints = await call(s.sim, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('svc') });
    assert.equal(noEndpoints.status, 500, noEndpoints.body);
    assert.match(noEndpoints.json().message, /Post "https:\/\/hooks\.webhooks\.svc:443\/deny\?timeout=10s": service "webhooks\/hooks" has no endpoints/);

    const endpoints = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'hooks' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: s.webhook.port }] }] };
    assert.equal((await call(s.sim, 'POST', '/api/v1/namespaces/webhooks/endpoints', { body: endpoints })).status, 201);
    const denied = await call(s.sim, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('svc') });
    assert.equal(denied.status, 403, denied.body);
    assert.equal(denied.json().message, 'admission webhook "svc.example.com" denied the request: no');
  });

  it('matchConditions: CEL over object, oldObject and request; a false one skips the webhook, an error fails under Fail', async () => {
    s.webhook.on('/deny', () => deny);
    await configure(s.sim, 'validating', 'cel', [webhook('cel.example.com', `${s.webhook.url}/deny`, s.webhook.caBundle, {
      matchConditions: [
        { name: 'big', expression: "has(object.data) && 'size' in object.data && int(object.data.size) > 10" },
        { name: 'creates', expression: "request.operation == 'CREATE' && oldObject == null" },
      ],
    })]);
    const CMS = '/api/v1/namespaces/default/configmaps';
    assert.equal((await call(s.sim, 'POST', CMS, { body: configMap('small', { size: '3' }) })).status, 201);
    assert.equal((await call(s.sim, 'POST', CMS, { body: configMap('big', { size: '30' }) })).status, 403);
    assert.equal(s.webhook.reviews.length, 1, 'only the object the conditions select reached the webhook');

    await configure(s.sim, 'validating', 'cel', [webhook('cel.example.com', `${s.webhook.url}/deny`, s.webhook.caBundle, {
      matchConditions: [{ name: 'broken', expression: 'object.spec.replicas > 1' }],
    })]);
    const failed = await call(s.sim, 'POST', CMS, { body: configMap('no-spec') });
    assert.equal(failed.status, 403, failed.body);
    assert.match(failed.json().message, /^configmaps "no-spec" is forbidden: matchCondition "broken": /);
    assert.equal(s.webhook.reviews.length, 1, 'a condition that cannot be evaluated does not call the webhook');
  });
});

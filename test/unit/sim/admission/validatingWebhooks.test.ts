// Validating admission webhooks over real HTTPS: a denial is the request's answer, worded as
// kube-apiserver words it; webhooks see the object as it would be stored; deletes send the old
// object; warnings come back as Warning headers; dry runs reach only webhooks without side effects.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admissionSuite, call, configMap, configure, unconfigureAll, webhook } from './webhookServer.ts';

const s = admissionSuite();
const CM = '/api/v1/namespaces/default/configmaps';

afterEach(async () => {
  await unconfigureAll(s.sim);
  s.webhook.reviews.length = 0;
});

describe('validating webhooks', () => {
  it('deny with the webhook\'s code, reason, message and warnings, and nothing is stored', async () => {
    s.webhook.on('/deny', () => ({ allowed: false, status: { code: 403, reason: 'Forbidden', message: 'Always denied' }, warnings: ['denied on purpose'] }));
    await configure(s.sim, 'validating', 'deny', [webhook('deny.example.com', `${s.webhook.url}/deny`, s.webhook.caBundle)]);

    const r = await call(s.sim, 'POST', CM, { body: configMap('denied') });
    assert.equal(r.status, 403, r.body);
    assert.equal(r.json().reason, 'Forbidden');
    assert.equal(r.json().message, 'admission webhook "deny.example.com" denied the request: Always denied');
    assert.equal(r.headers['warning'], '299 - "denied on purpose"', 'a refusal carries the webhook\'s warnings too');
    assert.equal((await call(s.sim, 'GET', `${CM}/denied`)).status, 404);
  });

  it('deny without a status as a 400 "without explanation"', async () => {
    s.webhook.on('/no', () => ({ allowed: false }));
    await configure(s.sim, 'validating', 'no', [webhook('no.example.com', `${s.webhook.url}/no`, s.webhook.caBundle)]);

    const r = await call(s.sim, 'POST', CM, { body: configMap('unexplained') });
    assert.equal(r.status, 400, r.body);
    assert.equal(r.json().message, 'admission webhook "no.example.com" denied the request without explanation');
  });

  it('see the object as stored (uid, creationTimestamp) and allow it; their warnings come back as Warning headers', async () => {
    s.webhook.on('/look', () => ({ allowed: true, warnings: ['data key "a" is deprecated'] }));
    await configure(s.sim, 'validating', 'look', [webhook('look.example.com', `${s.webhook.url}/look`, s.webhook.caBundle)]);

    const r = await call(s.sim, 'POST', CM, { body: configMap('allowed') });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.headers['warning'], '299 - "data key \\"a\\" is deprecated"');
    const seen = s.webhook.reviews[0].request.object;
    assert.equal(seen.metadata.uid, r.json().metadata.uid);
    assert.equal(seen.metadata.creationTimestamp, r.json().metadata.creationTimestamp);
  });

  it('get DELETE with the stored object as oldObject and can refuse it', async () => {
    await call(s.sim, 'POST', CM, { body: configMap('kept') });
    s.webhook.on('/keep', (review) => ({ allowed: false, status: { code: 403, reason: 'Forbidden', message: `${review.request.oldObject.metadata.name} is kept` } }));
    await configure(s.sim, 'validating', 'keep', [webhook('keep.example.com', `${s.webhook.url}/keep`, s.webhook.caBundle, {
      rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })]);

    const r = await call(s.sim, 'DELETE', `${CM}/kept`);
    assert.equal(r.status, 403, r.body);
    assert.equal(r.json().message, 'admission webhook "keep.example.com" denied the request: kept is kept');
    const request = s.webhook.reviews[0].request;
    assert.equal(request.operation, 'DELETE');
    assert.equal(request.object, null);
    assert.equal(request.options.kind, 'DeleteOptions');
    assert.equal((await call(s.sim, 'GET', `${CM}/kept`)).status, 200);

    // A deletecollection asks about each object it would delete.
    const all = await call(s.sim, 'DELETE', CM);
    assert.equal(all.status, 403, all.body);
    assert.equal((await call(s.sim, 'GET', `${CM}/kept`)).status, 200);
  });

  it('are called on a dry run (v1 allows only webhooks without side effects), and a dry run stores nothing', async () => {
    s.webhook.on('/none', () => ({ allowed: true }));
    await configure(s.sim, 'validating', 'none', [webhook('none.example.com', `${s.webhook.url}/none`, s.webhook.caBundle)]);
    const dry = await call(s.sim, 'POST', `${CM}?dryRun=All`, { body: configMap('dry') });
    assert.equal(dry.status, 201, dry.body);
    assert.equal(s.webhook.reviews.length, 1);
    assert.equal(s.webhook.reviews[0].request.dryRun, true);
    assert.deepEqual(s.webhook.reviews[0].request.options.dryRun, ['All']);
    assert.equal((await call(s.sim, 'GET', `${CM}/dry`)).status, 404);

    // admissionregistration/v1 refuses a webhook with side effects outright (only configurations
    // stored before v1 can still have one), so no dry run meets it.
    const some = webhook('some.example.com', `${s.webhook.url}/none`, s.webhook.caBundle, { sideEffects: 'Some' });
    const refused = await call(s.sim, 'POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'some' }, webhooks: [some] },
    });
    assert.equal(refused.status, 422, refused.body);
    assert.equal(refused.json().details.causes[0].field, 'webhooks[0].sideEffects');
    assert.equal((await call(s.sim, 'POST', `${CM}?dryRun=All`, { body: configMap('dry') })).status, 201);
    assert.equal(s.webhook.reviews.length, 2, 'the webhook without side effects is called on every dry run');
  });
});

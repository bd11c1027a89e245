// Mutating admission webhooks over real HTTPS: the sim sends them an AdmissionReview for each
// create/update they match, stores what their JSON patches make of the object, reinvokes IfNeeded
// webhooks after a later change, and refuses a patch answer kube-apiserver would refuse.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admissionSuite, call, configMap, configure, jsonPatch, unconfigureAll, webhook } from './webhookServer.ts';

const s = admissionSuite();
const CM = '/api/v1/namespaces/default/configmaps';

afterEach(async () => {
  await unconfigureAll(s.sim);
  s.webhook.reviews.length = 0;
});

describe('mutating webhooks', () => {
  it('store the object as the webhook patched it on create, and send a complete AdmissionReview', async () => {
    s.webhook.on('/label', () => ({ allowed: true, ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { stamped: 'yes' } }]) }));
    await configure(s.sim, 'mutating', 'stamp', [webhook('stamp.example.com', `${s.webhook.url}/label`, s.webhook.caBundle)]);

    const created = await call(s.sim, 'POST', CM, { body: configMap('patched-on-create') });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().metadata.labels, { stamped: 'yes' });
    const read = await call(s.sim, 'GET', `${CM}/patched-on-create`);
    assert.deepEqual(read.json().metadata.labels, { stamped: 'yes' });

    assert.equal(s.webhook.reviews.length, 1);
    const review = s.webhook.reviews[0];
    assert.equal(review.apiVersion, 'admission.k8s.io/v1');
    assert.equal(review.kind, 'AdmissionReview');
    assert.match(review.path, /^\/label\?timeout=10s$/);
    const request = review.request;
    assert.match(request.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(request.kind, { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(request.resource, { group: '', version: 'v1', resource: 'configmaps' });
    assert.deepEqual(request.requestKind, { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.equal(request.operation, 'CREATE');
    assert.equal(request.namespace, 'default');
    assert.equal(request.name, 'patched-on-create');
    assert.equal(request.dryRun, false);
    assert.equal(request.userInfo.username, 'controller-lab');
    assert.equal(request.options.kind, 'CreateOptions');
    assert.deepEqual(request.object.data, { a: '1' });
    assert.equal(request.oldObject, null);
  });

  it('are told who made the request: an impersonated user with its groups, uid and extras', async () => {
    s.webhook.on('/who', () => ({ allowed: true }));
    await configure(s.sim, 'mutating', 'who', [webhook('who.example.com', `${s.webhook.url}/who`, s.webhook.caBundle)]);
    const headers = { 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters', 'Impersonate-Uid': 'u-7', 'Impersonate-Extra-Team': 'blue' };
    const created = await call(s.sim, 'POST', CM, { body: configMap('made-by-jane'), headers });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(s.webhook.reviews.at(-1).request.userInfo, { username: 'jane', uid: 'u-7', groups: ['system:masters', 'system:authenticated'], extra: { team: ['blue'] } });
  });

  it('see the stored object as oldObject on update and patch, and their patch applies to updates too', async () => {
    await call(s.sim, 'POST', CM, { body: configMap('patched-on-update') });
    s.webhook.on('/count', (review) => ({ allowed: true, ...jsonPatch([{ op: 'add', path: '/data/seen', value: `${review.request.operation}:${review.request.oldObject?.data?.a ?? '-'}` }]) }));
    await configure(s.sim, 'mutating', 'count', [webhook('count.example.com', `${s.webhook.url}/count`, s.webhook.caBundle)]);

    const current = (await call(s.sim, 'GET', `${CM}/patched-on-update`)).json();
    // A PUT's body may leave out namespace and name (the URL's are used): the webhook is still called, shown both.
    const body = { ...current, metadata: { ...current.metadata, namespace: undefined, name: undefined }, data: { a: '2' } };
    const updated = await call(s.sim, 'PUT', `${CM}/patched-on-update`, { body });
    assert.equal(updated.status, 200, updated.body);
    assert.deepEqual(updated.json().data, { a: '2', seen: 'UPDATE:1' });
    assert.equal(s.webhook.reviews.at(-1).request.object.metadata.namespace, 'default');
    assert.equal(s.webhook.reviews.at(-1).request.object.metadata.name, 'patched-on-update');

    const merged = await call(s.sim, 'PATCH', `${CM}/patched-on-update`, { body: { data: { a: '3' } }, contentType: 'application/merge-patch+json' });
    assert.equal(merged.status, 200, merged.body);
    assert.deepEqual(merged.json().data, { a: '3', seen: 'UPDATE:2' });
    assert.equal(s.webhook.reviews.at(-1).request.options.kind, 'UpdateOptions');
  });

  it('run in configuration name order, each seeing the previous one\'s change; IfNeeded ones run again after a later change', async () => {
    const calls: string[] = [];
    s.webhook.on('/first', (review) => {
      calls.push(`first:${review.request.object.data.second ?? '-'}`);
      return { allowed: true, ...jsonPatch([{ op: 'add', path: '/data/first', value: 'x' }]) };
    });
    s.webhook.on('/second', (review) => {
      calls.push(`second:${review.request.object.data.first ?? '-'}`);
      return { allowed: true, ...jsonPatch([{ op: 'add', path: '/data/second', value: 'y' }]) };
    });
    await configure(s.sim, 'mutating', 'b-second', [webhook('second.example.com', `${s.webhook.url}/second`, s.webhook.caBundle)]);
    await configure(s.sim, 'mutating', 'a-first', [webhook('first.example.com', `${s.webhook.url}/first`, s.webhook.caBundle, { reinvocationPolicy: 'IfNeeded' })]);

    const created = await call(s.sim, 'POST', CM, { body: configMap('ordered') });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().data, { a: '1', first: 'x', second: 'y' });
    assert.deepEqual(calls, ['first:-', 'second:x', 'first:y']);
  });

  it('answer 500 when a webhook sends a patch without patchType (failurePolicy Fail), and store nothing', async () => {
    s.webhook.on('/sloppy', () => ({ allowed: true, patch: Buffer.from('[]').toString('base64') }));
    await configure(s.sim, 'mutating', 'sloppy', [webhook('sloppy.example.com', `${s.webhook.url}/sloppy`, s.webhook.caBundle)]);

    const r = await call(s.sim, 'POST', CM, { body: configMap('never-stored') });
    assert.equal(r.status, 500, r.body);
    assert.equal(r.json().reason, 'InternalError');
    assert.equal(r.json().message, 'Internal error occurred: failed calling webhook "sloppy.example.com": received invalid webhook response: webhook returned response.patch but not response.patchType');
    assert.equal((await call(s.sim, 'GET', `${CM}/never-stored`)).status, 404);
  });

  it('give a generated name once: the object is stored under the name the webhooks were shown', async () => {
    s.webhook.on('/name', (review) => ({ allowed: true, ...jsonPatch([{ op: 'add', path: '/data/ownName', value: review.request.object.metadata.name }]) }));
    await configure(s.sim, 'mutating', 'name', [webhook('name.example.com', `${s.webhook.url}/name`, s.webhook.caBundle)]);

    const r = await call(s.sim, 'POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' }, data: {} } });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.json().data.ownName, r.json().metadata.name);
    assert.equal(s.webhook.reviews[0].request.name, undefined, 'a create with generateName has no name in its request');
  });

  it('start over when the object changed while its webhooks were being called, so no change is lost', async () => {
    await call(s.sim, 'POST', CM, { body: configMap('raced', { a: '1' }) });
    let calls = 0;
    s.webhook.on('/race', async () => {
      calls++;
      // Another client writes the object while the first call is out.
      if (calls === 1) {
        const other = await call(s.sim, 'PATCH', `${CM}/raced`, { body: { data: { other: 'kept' } }, contentType: 'application/merge-patch+json' });
        assert.equal(other.status, 200, other.body);
      }
      return { allowed: true, ...jsonPatch([{ op: 'add', path: '/data/stamped', value: String(calls) }]) };
    });
    await configure(s.sim, 'mutating', 'race', [webhook('race.example.com', `${s.webhook.url}/race`, s.webhook.caBundle, {
      rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })]);

    const patched = await call(s.sim, 'PATCH', `${CM}/raced`, { body: { data: { mine: 'yes' } }, contentType: 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.body);
    // The inner patch went through the webhook too (call 2); the outer one was admitted again (call 3).
    assert.deepEqual(patched.json().data, { a: '1', other: 'kept', mine: 'yes', stamped: '3' });
    assert.equal(calls, 3);
  });

  it('speak admission.k8s.io/v1beta1 to a webhook that lists only that version (a patch needs no patchType there)', async () => {
    s.webhook.on('/old', () => ({ allowed: true, patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/data/old', value: 'v1beta1' }])).toString('base64') }));
    await configure(s.sim, 'mutating', 'old', [webhook('old.example.com', `${s.webhook.url}/old`, s.webhook.caBundle, { admissionReviewVersions: ['v1beta1'] })]);

    const created = await call(s.sim, 'POST', CM, { body: configMap('old-review') });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().data.old, 'v1beta1');
    assert.equal(s.webhook.reviews[0].apiVersion, 'admission.k8s.io/v1beta1');
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// Patches answered as kube-apiserver answers them: what Go prints after the patch, managed fields
// that own nothing dropped, and its words for media types it does not take.

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';

describe('patch answers', () => {
  it('a strategic merge patch whose result does not convert is a 422 on `patch` quoting the patch as Go prints it, in the converter\'s words', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'unconvertible' } } })).status, 201);
    const smp = (body: unknown) => call(suite.server, 'PATCH', `${CMS}/unconvertible`, { body, contentType: 'application/strategic-merge-patch+json' });
    const cases: [unknown, string][] = [
      [{ data: { a: 1 } }, '"map[data:map[a:1]]": cannot convert int64 to string'],
      [{ data: { a: true }, metadata: { labels: { x: 'y' } } }, '"map[data:map[a:true] metadata:map[labels:map[x:y]]]": unrecognized type: string'],
      [{ data: 'x' }, '"map[data:x]": cannot restore map from string'],
    ];
    for (const [body, detail] of cases) {
      const r = await smp(body);
      assert.equal(r.status, 422, r.body);
      assert.equal(r.json().message, ` "" is invalid: patch: Invalid value: ${detail}`);
    }
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const labels = { app: 'smp' };
    assert.equal((await call(suite.server, 'POST', deployments, { body: { metadata: { name: 'smp' }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } })).status, 201);
    const replicas = await call(suite.server, 'PATCH', `${deployments}/smp`, { body: { spec: { replicas: '3' } }, contentType: 'application/strategic-merge-patch+json' });
    assert.equal(replicas.json().message, ' "" is invalid: patch: Invalid value: "map[spec:map[replicas:3]]": unrecognized type: int32');
    const fraction = await call(suite.server, 'PATCH', `${deployments}/smp`, { body: { spec: { replicas: 1.5 } }, contentType: 'application/strategic-merge-patch+json' });
    assert.equal(fraction.json().message, ' "" is invalid: patch: Invalid value: "map[spec:map[replicas:1.5]]": cannot convert float64 to int32');
    assert.equal((await call(suite.server, 'PATCH', `${deployments}/smp`, { body: { spec: { replicas: 2 } }, contentType: 'application/strategic-merge-patch+json' })).status, 200);
  });

  it('a merge or JSON patch whose result does not decode is a 422 on `patch` quoting the patched JSON, a number written 1e3 included', async () => {
    const made = (await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'undecodable' } } })).json();
    const { uid, resourceVersion, creationTimestamp } = made.metadata;
    const patched = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"creationTimestamp":"${creationTimestamp}","generation":1e3,"name":"undecodable","namespace":"default","resourceVersion":"${resourceVersion}","uid":"${uid}"}}`;
    const why = 'json: cannot unmarshal number 1e3 into Go struct field ObjectMeta.metadata.generation of type int64';
    const merge = await call(suite.server, 'PATCH', `${CMS}/undecodable`, { body: '{"metadata":{"generation":1e3}}', contentType: 'application/merge-patch+json' });
    assert.equal(merge.status, 422, merge.body);
    // kube-apiserver's words: an Invalid error of no kind and no name.
    assert.equal(merge.json().message, ` "" is invalid: patch: Invalid value: ${JSON.stringify(patched)}: ${why}`);
    assert.deepEqual(merge.json().details, { causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(patched)}: ${why}`, field: 'patch' }] });
    const json = await call(suite.server, 'PATCH', `${CMS}/undecodable`, { body: '[{"op":"add","path":"/metadata/generation","value":1e3}]', contentType: 'application/json-patch+json' });
    assert.equal(json.status, 422, json.body);
    assert.equal(json.json().message, merge.json().message);
    const wrongType = await call(suite.server, 'PATCH', `${CMS}/undecodable`, { body: { data: { a: 1 } }, contentType: 'application/merge-patch+json' });
    assert.equal(wrongType.status, 422, wrongType.body);
    assert.match(wrongType.json().message, /^ "" is invalid: patch: Invalid value: ".*": json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/);
    // The same number written plainly is taken.
    assert.equal((await call(suite.server, 'PATCH', `${CMS}/undecodable`, { body: '{"metadata":{"generation":1000}}', contentType: 'application/merge-patch+json' })).status, 200);
  });

  it('under fieldValidation=Strict a patch bringing unknown fields is a 422 on `patch` (a create\'s body gets a 400), the fields in sorted order', async () => {
    const made = (await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'strict-patch' }, data: { a: '1' } } })).json();
    // The stored object with the patch merged: the objects the patch went into print their keys
    // sorted, as Go prints a map; the rest (managedFields) keeps the stored order.
    const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
    const patched = JSON.stringify(sorted({ ...made, bogus: 1, metadata: sorted({ ...made.metadata, zz: 'x' }) }));
    const strict = (type: string, body: unknown) =>
      call(suite.server, 'PATCH', `${CMS}/strict-patch?fieldValidation=Strict`, { body, contentType: `application/${type}+json` });
    const why = 'strict decoding error: unknown field "bogus", unknown field "metadata.zz"';
    const merge = await strict('merge-patch', { metadata: { zz: 'x' }, bogus: 1 });
    assert.equal(merge.status, 422, merge.body);
    assert.equal(merge.json().reason, 'Invalid');
    assert.equal(merge.json().message, ` "" is invalid: patch: Invalid value: ${JSON.stringify(patched)}: ${why}`);
    assert.deepEqual(merge.json().details, { causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(patched)}: ${why}`, field: 'patch' }] });
    const json = await strict('json-patch', [{ op: 'add', path: '/metadata/zz', value: 'x' }, { op: 'add', path: '/bogus', value: 1 }]);
    assert.equal(json.status, 422, json.body);
    assert.equal(json.json().message, merge.json().message);
    // A JSON patch that only adds at the top leaves metadata undecoded: ObjectMeta's field order.
    const top = await strict('json-patch', [{ op: 'add', path: '/bogus', value: { z: 1, a: 2 } }]);
    const { name, namespace, uid, resourceVersion, creationTimestamp, managedFields } = made.metadata;
    const topText = JSON.stringify({ apiVersion: 'v1', bogus: { z: 1, a: 2 }, data: { a: '1' }, kind: 'ConfigMap', metadata: { name, namespace, uid, resourceVersion, creationTimestamp, managedFields } });
    assert.equal(top.json().message, ` "" is invalid: patch: Invalid value: ${JSON.stringify(topText)}: strict decoding error: unknown field "bogus"`);
    const smp = await strict('strategic-merge-patch', { metadata: { zz: [1, 'a', true, null, 1.5] }, bogus: 1, data: { x: 'y' } });
    assert.equal(smp.status, 422, smp.body);
    assert.equal(smp.json().message, ` "" is invalid: patch: Invalid value: "map[bogus:1 data:map[x:y] metadata:map[zz:[1 a true \u003cnil\u003e 1.5]]]": ${why}`);
    // Without Strict the unknown fields are dropped and the patch goes through.
    assert.equal((await call(suite.server, 'PATCH', `${CMS}/strict-patch`, { body: { bogus: 1 }, contentType: 'application/merge-patch+json' })).status, 200);
  });

  it('a merge patch removing the last key leaves no data and no manager owning nothing', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'last-key' }, data: { a: '1' } } })).status, 201);
    const r = await call(suite.server, 'PATCH', `${CMS}/last-key`, { body: { data: { a: null } }, contentType: 'application/merge-patch+json' });
    assert.equal(r.status, 200, r.body);
    assert.equal('data' in r.json(), false, r.body);
    assert.equal('managedFields' in r.json().metadata, false, r.body);
  });

  it('a JSON patch replacing a missing key of an object adds it, as kube-apiserver\'s json-patch library does', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'replace-missing' }, data: { a: '1' } } })).status, 201);
    const r = await call(suite.server, 'PATCH', `${CMS}/replace-missing`, { body: [{ op: 'replace', path: '/data/zzz', value: 'x' }], contentType: 'application/json-patch+json' });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().data, { a: '1', zzz: 'x' });
    const missingIndex = await call(suite.server, 'PATCH', `${CMS}/replace-missing`, { body: [{ op: 'replace', path: '/metadata/finalizers/3', value: 'x' }], contentType: 'application/json-patch+json' });
    assert.equal(missingIndex.status, 422, 'a missing array index still fails');
  });

  it('a PATCH of a Content-Type no patch has is refused by the route, in its words', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'text-plain' } } })).status, 201);
    const r = await call(suite.server, 'PATCH', `${CMS}/text-plain`, { body: '{}', contentType: 'text/plain' });
    assert.equal(r.status, 415);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: '415: Unsupported Media Type', reason: 'UnsupportedMediaType', details: {}, code: 415 });
  });
  it('a JSON patch whose copies double the object each time is refused past 3 MiB of copies, and the sim goes on', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'copy-bomb' }, data: { a: '1' } } })).status, 201);
    // 40 copies of a value into itself: 2^40 nodes, were they all made.
    const ops: unknown[] = [{ op: 'add', path: '/metadata/annotations', value: { x: 'y'.repeat(100) } }];
    for (let i = 0; i < 40; i++) ops.push({ op: 'copy', from: '/metadata/annotations', path: `/metadata/annotations/n${i}` });
    const r = await call(suite.server, 'PATCH', `${CMS}/copy-bomb`, { body: ops, contentType: 'application/json-patch+json' });
    assert.equal(r.status, 422, r.body.slice(0, 300));
    assert.equal(r.json().kind, 'Status');
    const after = await call(suite.server, 'GET', `${CMS}/copy-bomb`);
    assert.deepEqual(after.json().data, { a: '1' });
    assert.equal(after.json().metadata.annotations, undefined);
  });

  it('a JSON patch of more than 10000 operations is refused whole, as kube-apiserver refuses it', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'many-ops' }, data: { a: '1' } } })).status, 201);
    const ops = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/data/a', value: '1' }));
    const r = await call(suite.server, 'PATCH', `${CMS}/many-ops`, { body: ops, contentType: 'application/json-patch+json' });
    assert.equal(r.status, 413, r.body.slice(0, 300));
    assert.equal(r.json().message, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    const fine = await call(suite.server, 'PATCH', `${CMS}/many-ops`, { body: ops.slice(1), contentType: 'application/json-patch+json' });
    assert.equal(fine.status, 200, fine.body.slice(0, 300));
  });
});

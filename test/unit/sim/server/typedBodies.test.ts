import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// Bodies of built-in kinds decode as kube-apiserver decodes them into the Go types: a value of the
// wrong JSON type is a 400 naming the Go field, and unknown fields are dropped with a Warning header
// (refused under fieldValidation=Strict, as kubectl --validate=strict asks).

const suite = suiteServer();
const CM = '/api/v1/namespaces/default/configmaps';

describe('typed decoding of built-in kinds', () => {
  it('a number in a ConfigMap\'s data is a 400 and nothing is stored (so typed clients can still list)', async () => {
    const r = await call(suite.server, 'POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad' }, data: { a: 1 } } });
    assert.equal(r.status, 400);
    assert.equal(r.json().reason, 'BadRequest');
    assert.equal(r.json().message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
    assert.equal((await call(suite.server, 'GET', `${CM}/bad`)).status, 404);
  });

  it('nested fields name their Go struct and path; fractions are refused for integers', async () => {
    const r = await call(suite.server, 'POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1.5, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } },
    });
    assert.equal(r.status, 400);
    assert.match(r.json().message, /cannot unmarshal number 1\.5 into Go struct field DeploymentSpec\.spec\.replicas of type int32$/);
    const labels = await call(suite.server, 'POST', CM, { body: { metadata: { name: 'l', labels: { tier: 2 } } } });
    assert.match(labels.json().message, /Go struct field ObjectMeta\.metadata\.labels of type string$/);
  });

  it('integers are read as written: past the Go type\'s range, with an exponent or a fraction, refused naming the literal', async () => {
    // JSON.parse would read these as 1.2345678901234568e+29, 1000, 2 and Infinity; kube-apiserver v1.28.4 refuses each.
    const cases: [string, string, string, string][] = [
      [CM, '{"metadata":{"name":"n1","generation":123456789012345678901234567890}}', '123456789012345678901234567890', 'ObjectMeta.metadata.generation of type int64'],
      [CM, '{"metadata":{"name":"n2","generation":9223372036854775808}}', '9223372036854775808', 'ObjectMeta.metadata.generation of type int64'],
      [CM, '{"metadata":{"name":"n3","generation":1e3}}', '1e3', 'ObjectMeta.metadata.generation of type int64'],
      [CM, '{"metadata":{"name":"n4","generation":2.0}}', '2.0', 'ObjectMeta.metadata.generation of type int64'],
      [CM, '{"metadata":{"name":"n5","generation":1e400}}', '1e400', 'ObjectMeta.metadata.generation of type int64'],
      ['/api/v1/namespaces/default/pods', '{"metadata":{"name":"p"},"spec":{"terminationGracePeriodSeconds":9223372036854775808,"containers":[{"name":"c","image":"i"}]}}', '9223372036854775808', 'PodSpec.spec.terminationGracePeriodSeconds of type int64'],
      ['/apis/apps/v1/namespaces/default/deployments', '{"metadata":{"name":"d2"},"spec":{"replicas":2147483648,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}', '2147483648', 'DeploymentSpec.spec.replicas of type int32'],
    ];
    for (const [path, body, literal, field] of cases) {
      const r = await call(suite.server, 'POST', path, { body });
      assert.equal(r.status, 400, body);
      assert.ok(r.json().message.endsWith(`: json: cannot unmarshal number ${literal} into Go struct field ${field}`), r.json().message);
    }
    // The largest int64, and -0, are integers as written.
    const fits = await call(suite.server, 'POST', CM, { body: '{"metadata":{"name":"n6","generation":-0},"data":{"image":"nginx:1.25"}}' });
    assert.equal(fits.status, 201);
    const max = await call(suite.server, 'POST', CM, { body: '{"metadata":{"name":"n7","generation":9223372036854775807}}' });
    assert.equal(max.status, 201, max.body);
  });

  it('a Secret\'s data must be base64', async () => {
    const r = await call(suite.server, 'POST', '/api/v1/namespaces/default/secrets', { body: { metadata: { name: 's' }, data: { password: 'not base64!' } } });
    assert.equal(r.status, 400);
    assert.match(r.json().message, /^Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte \d+$/);
  });

  it('unknown fields are dropped with a Warning header by default', async () => {
    const r = await call(suite.server, 'POST', CM, { body: { metadata: { name: 'extra', flavour: 'x' }, data: { a: 'b' }, spec: { x: 1 } } });
    assert.equal(r.status, 201);
    assert.equal(r.json().spec, undefined);
    assert.equal(r.json().metadata.flavour, undefined);
    assert.deepEqual(r.headers.warning, '299 - "unknown field \\"metadata.flavour\\"", 299 - "unknown field \\"spec\\""');
  });

  it('fieldValidation=Strict refuses unknown fields, Ignore drops them silently', async () => {
    const body = { metadata: { name: 'strict' }, data: { a: 'b' }, spec: { x: 1 } };
    const strict = await call(suite.server, 'POST', `${CM}?fieldValidation=Strict`, { body });
    assert.equal(strict.status, 400);
    assert.equal(strict.json().message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec"');
    const ignore = await call(suite.server, 'POST', `${CM}?fieldValidation=Ignore`, { body });
    assert.equal(ignore.status, 201);
    assert.equal(ignore.headers.warning, undefined);
    assert.equal(ignore.json().spec, undefined);
  });

  it('a patch that would store a wrong type is refused too (kube-apiserver\'s 422 on the patched object)', async () => {
    await call(suite.server, 'POST', CM, { body: { metadata: { name: 'p' }, data: { a: 'b' } } });
    const r = await call(suite.server, 'PATCH', `${CM}/p`, { body: { data: { a: true } }, contentType: 'application/merge-patch+json' });
    assert.equal(r.status, 422);
    assert.match(r.json().message, /^ "" is invalid: patch: Invalid value: .*cannot unmarshal bool into Go struct field ConfigMap\.data of type string/);
  });

  it('valid ConfigMaps are stored and the whole list decodes with typed values', async () => {
    const r = await call(suite.server, 'POST', CM, { body: { metadata: { name: 'list-still-works' }, data: { k: 'v' } } });
    assert.equal(r.status, 201);
    const list = await call(suite.server, 'GET', CM);
    assert.equal(list.status, 200);
    for (const item of list.json().items) for (const v of Object.values(item.data ?? {})) assert.equal(typeof v, 'string');
  });
});

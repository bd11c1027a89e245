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

  it('a patch that would store a wrong type is refused too', async () => {
    await call(suite.server, 'POST', CM, { body: { metadata: { name: 'p' }, data: { a: 'b' } } });
    const r = await call(suite.server, 'PATCH', `${CM}/p`, { body: { data: { a: true } }, contentType: 'application/merge-patch+json' });
    assert.equal(r.status, 400);
    assert.match(r.json().message, /cannot unmarshal bool into Go struct field ConfigMap\.data of type string/);
  });

  it('valid ConfigMaps are stored and the whole list decodes with typed values', async () => {
    const r = await call(suite.server, 'POST', CM, { body: { metadata: { name: 'list-still-works' }, data: { k: 'v' } } });
    assert.equal(r.status, 201);
    const list = await call(suite.server, 'GET', CM);
    assert.equal(list.status, 200);
    for (const item of list.json().items) for (const v of Object.values(item.data ?? {})) assert.equal(typeof v, 'string');
  });
});

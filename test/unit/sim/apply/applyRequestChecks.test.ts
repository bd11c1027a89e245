import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';

// What kube-apiserver checks of an apply configuration before merging it: that it is of the kind
// and version the URL names, and that it names the object the URL names; and what an apply that
// would create answers under dryRun.

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';
const apply = (name: string, yaml: string, query = '') =>
  call(suite.server, 'PATCH', `${CMS}/${name}?fieldManager=alice${query}`, { body: yaml, contentType: 'application/apply-patch+yaml' });

describe('apply configuration checks', () => {
  it('a configuration without a kind is of an invalid object type', async () => {
    const r = await apply('nokind', 'apiVersion: v1\nmetadata:\n  name: nokind\n');
    assert.equal(r.status, 400, r.body);
    assert.equal(r.json().message, 'invalid object type: /v1, Kind=');
    assert.equal((await call(suite.server, 'GET', `${CMS}/nokind`)).status, 404, 'nothing created');
  });

  it('a configuration of another kind is of an invalid object type', async () => {
    const r = await apply('otherkind', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: otherkind\n');
    assert.equal(r.status, 400, r.body);
    assert.equal(r.json().message, 'invalid object type: /v1, Kind=Secret');
  });

  it('a configuration naming another object is refused, also when it would create', async () => {
    const r = await apply('url-name', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: body-name\ndata:\n  a: "1"\n');
    assert.equal(r.status, 400, r.body);
    assert.equal(r.json().message, 'the name of the object (body-name) does not match the name on the URL (url-name)');
    assert.equal((await call(suite.server, 'GET', `${CMS}/url-name`)).status, 404, 'nothing created');
  });

  it('a dry-run apply that would create answers 201 and stores nothing', async () => {
    const r = await apply('dry', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dry\n', '&dryRun=All');
    assert.equal(r.status, 201, r.body);
    assert.equal((await call(suite.server, 'GET', `${CMS}/dry`)).status, 404);
  });
});

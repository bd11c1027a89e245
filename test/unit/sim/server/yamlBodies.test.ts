import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// YAML bodies read as kube-apiserver reads them (yaml.v2 under sigs.k8s.io/yaml): `<<: *anchor`
// merges the anchored map, and a key named twice keeps its last value, with yaml.v2's complaint
// as a warning, or a 400 under fieldValidation=Strict. Answers checked against kube-apiserver v1.28.4.

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';
const yaml = (path: string, body: string, method = 'POST') => call(suite.server, method, path, { body, contentType: 'application/yaml' });
const merged = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels: &base\n    a: x\n  annotations:\n    <<: *base\n    b: z\n`;
const repeated = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: '1'\n  a: '2'\n  b: '1'\n  b: '3'\n`;

describe('YAML bodies', () => {
  it('a merge key merges the anchored map, in a create and in a server-side apply', async () => {
    const created = await yaml(CMS, merged('merged'));
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().metadata.annotations, { a: 'x', b: 'z' });
    const applied = await call(suite.server, 'PATCH', `${CMS}/applied?fieldManager=t`, { body: merged('applied'), contentType: 'application/apply-patch+yaml' });
    assert.equal(applied.status, 201, applied.body);
    assert.deepEqual(applied.json().metadata.annotations, { a: 'x', b: 'z' });
  });

  it('a merge key sets the anchored entries where it stands: after an explicit key it overwrites it, with a warning either way', async () => {
    const anchored = (name: string, annotations: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels: &a\n    k: anchor\n  annotations:\n${annotations}`;
    const mergedLast = await yaml(CMS, anchored('merged-last', '    k: explicit\n    <<: *a\n'));
    assert.equal(mergedLast.status, 201, mergedLast.body);
    assert.deepEqual(mergedLast.json().metadata.annotations, { k: 'anchor' });
    // The line of the anchored entry's value, which the merge set a second time.
    assert.equal(mergedLast.headers.warning, '299 - "line 6: key \\"k\\" already set in map"');
    const explicitLast = await yaml(CMS, anchored('explicit-last', '    <<: *a\n    k: explicit\n'));
    assert.deepEqual(explicitLast.json().metadata.annotations, { k: 'explicit' });
    assert.equal(explicitLast.headers.warning, '299 - "line 9: key \\"k\\" already set in map"');
    // Of a list of merged maps, the first one wins.
    const list = await yaml(CMS, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: merged-list\n  labels: &a {k: one}\n  annotations: &b {k: two, j: two}\ndata:\n  <<: [*a, *b]\n`);
    assert.deepEqual(list.json().data, { k: 'one', j: 'two' });
  });

  it('a number in exponent form is the integer it names (yaml.v2 reads 1e3 as 1000)', async () => {
    const created = await yaml(CMS, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: exponent\n  generation: 1e3\n');
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().metadata.generation, 1000);
  });

  it('a key named twice keeps the last value, with a warning for each repeat', async () => {
    const created = await yaml(CMS, repeated('twice'));
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().data, { a: '2', b: '3' });
    assert.equal(created.headers.warning, '299 - "line 7: key \\"a\\" already set in map", 299 - "line 9: key \\"b\\" already set in map"');
    const updated = await yaml(`${CMS}/twice`, repeated('twice').replace("a: '2'", "a: '5'"), 'PUT');
    assert.equal(updated.status, 200, updated.body);
    assert.equal(updated.json().data.a, '5');
    const ignored = await yaml(`${CMS}?fieldValidation=Ignore`, repeated('ignored'));
    assert.equal(ignored.status, 201);
    assert.equal(ignored.headers.warning, undefined);
  });

  it('under fieldValidation=Strict a repeated key is a 400 listing each', async () => {
    const r = await yaml(`${CMS}?fieldValidation=Strict`, repeated('strict'));
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: yaml: unmarshal errors:\n  line 7: key "a" already set in map\n  line 9: key "b" already set in map');
    assert.equal((await call(suite.server, 'GET', `${CMS}/strict`)).status, 404);
  });

  it('an alias bomb (six anchors of nine aliases each: half a million strings) is a 400 within a second, in a create and an apply, and the server keeps answering', async () => {
    const levels = 'abcdef'.split('');
    const bomb = levels.map((name, i) => `  ${name}: &${name} [${Array(9).fill(i === 0 ? '"lol"' : `*${levels[i - 1]}`).join(', ')}]\n`).join('');
    const body = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  annotations: {}\nspec:\n${bomb}`;
    const started = Date.now();
    const created = await yaml(CMS, body);
    assert.equal(created.status, 400, created.body.slice(0, 300));
    assert.match(created.json().message, /document contains excessive aliasing/);
    const applied = await call(suite.server, 'PATCH', `${CMS}/bomb?fieldManager=t`, { body, contentType: 'application/apply-patch+yaml' });
    assert.equal(applied.status, 400, applied.body.slice(0, 300));
    assert.match(applied.json().message, /document contains excessive aliasing/);
    assert.ok(Date.now() - started < 1000, `answered in ${Date.now() - started} ms`);
    assert.equal((await call(suite.server, 'GET', `${CMS}/bomb`)).status, 404);
  });

  it('an anchor whose value contains its own alias is a 400 that says so', async () => {
    const r = await yaml(CMS, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: loop\ndata: &d\n  self: *d\n');
    assert.equal(r.status, 400, r.body);
    assert.match(r.json().message, /anchor 'd' value contains itself/);
  });

  it('aliases used as YAML authors do (a shared block repeated a few hundred times) are read', async () => {
    const uses = Array.from({ length: 300 }, (_, i) => `  k${i}: *v\n`).join('');
    const r = await yaml(CMS, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n  labels:\n    base: &v shared\ndata:\n${uses}`);
    assert.equal(r.status, 201, r.body.slice(0, 300));
    assert.equal(Object.keys(r.json().data).length, 300);
  });
});

// Deeply nested JSON: refused with 400 before anything is stored, so no object can make a later
// LIST, GET or WATCH of its resource fail (kube-apiserver's decoder refuses such bodies likewise).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NESTING_DEPTH } from '../../../../src/sim/store/nestingDepth.ts';
import { call, openWatch } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();

const WIDGETS = '/apis/depth.example.com/v1/namespaces/default/widgets';

/** `{"a":{"a":…{"leaf":1}…}}` with `levels` objects, built as text (no recursion here either). */
function nestedJson(levels: number): string {
  return '{"a":'.repeat(levels - 1) + '{"leaf":1}' + '}'.repeat(levels - 1);
}

function widget(name: string, specJson: string): string {
  return `{"apiVersion":"depth.example.com/v1","kind":"Widget","metadata":{"name":"${name}"},"spec":${specJson}}`;
}

async function installWidgets(): Promise<void> {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.depth.example.com' },
    spec: {
      group: 'depth.example.com',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
  const r = await call(suite.server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
  assert.equal(r.status, 201, r.body);
}

describe('deeply nested request bodies', () => {
  before(installWidgets);

  it('a custom resource nested thousands of levels deep is refused with 400, not stored, and LIST and WATCH keep working', async () => {
    assert.equal((await call(suite.server, 'POST', WIDGETS, { body: widget('fine', nestedJson(50)) })).status, 201);
    const watch = await openWatch(suite.server, `${WIDGETS}?watch=1`);
    await watch.waitForLines(1);

    const deep = await call(suite.server, 'POST', WIDGETS, { body: widget('deep', nestedJson(4300)) });
    assert.equal(deep.status, 400, deep.body.slice(0, 300));
    const status = deep.json();
    assert.equal(status.reason, 'BadRequest');
    assert.match(status.message, /^the object provided is unrecognized \(must be of type Widget\): couldn't get version\/kind; json parse error: invalid character '\{' exceeded max depth/);

    const list = await call(suite.server, 'GET', WIDGETS);
    assert.equal(list.status, 200, list.body.slice(0, 300));
    assert.deepEqual(list.json().items.map((i: { metadata: { name: string } }) => i.metadata.name), ['fine']);
    assert.equal((await call(suite.server, 'GET', `${WIDGETS}/deep`)).status, 404);

    // The watch opened before is still served: the next write reaches it.
    assert.equal((await call(suite.server, 'POST', WIDGETS, { body: widget('after', nestedJson(3)) })).status, 201);
    const lines = await watch.waitForLines(2);
    assert.equal(JSON.parse(lines[1]!).object.metadata.name, 'after');
    watch.close();
  });

  it('100,000 levels of nesting are a 400 on any endpoint that reads a body', async () => {
    const body = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const [method, path, contentType] of [
      ['POST', '/api/v1/namespaces/default/configmaps', 'application/json'],
      ['PUT', '/api/v1/namespaces/default/configmaps/x', 'application/json'],
      ['PATCH', '/api/v1/namespaces/default/configmaps/x', 'application/merge-patch+json'],
      ['POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', 'application/json'],
      ['POST', '/api/v1/namespaces/default/configmaps', 'application/yaml'],
    ] as const) {
      const r = await call(suite.server, method, path, { body, contentType });
      assert.equal(r.status, 400, `${method} ${path} (${contentType}): ${r.status} ${r.body.slice(0, 200)}`);
      assert.match(r.json().message, /exceeded max depth/);
    }
    assert.equal((await call(suite.server, 'GET', '/healthz')).status, 200);
  });

  it('a patch that would nest an object past the limit is refused and leaves it as it was', async () => {
    const nearLimit = MAX_NESTING_DEPTH - 100;
    const created = await call(suite.server, 'POST', WIDGETS, { body: widget('patched', nestedJson(nearLimit)) });
    assert.equal(created.status, 201, created.body.slice(0, 300));
    const before = created.json().metadata.resourceVersion;
    // The patch itself is shallow; where it puts its value is not.
    const path = '/spec' + '/a'.repeat(nearLimit - 1);
    const patch = [{ op: 'add', path: `${path}/more`, value: JSON.parse(nestedJson(150)) }];
    const r = await call(suite.server, 'PATCH', `${WIDGETS}/patched`, { body: patch, contentType: 'application/json-patch+json' });
    assert.equal(r.status, 400, r.body.slice(0, 300));
    assert.match(r.json().message, new RegExp(`exceeded max depth of ${MAX_NESTING_DEPTH}`));
    assert.equal((await call(suite.server, 'GET', `${WIDGETS}/patched`)).json().metadata.resourceVersion, before);
    const list = await call(suite.server, 'GET', WIDGETS);
    assert.equal(list.status, 200, list.body.slice(0, 300));
  });

  it('counts the user\'s depth, not managedFields\': 1000 levels are taken by create, server-side apply and a PUT of what was read back, 1001 are not', async () => {
    const levels = (depth: number) => nestedJson(depth - 1); // the Widget itself is the first level
    const apply = (name: string, body: string) =>
      call(suite.server, 'PATCH', `${WIDGETS}/${name}?fieldManager=depth`, { body, contentType: 'application/apply-patch+yaml' });
    for (const [depth, expected] of [[MAX_NESTING_DEPTH, 201], [MAX_NESTING_DEPTH + 1, 400]] as const) {
      const created = await call(suite.server, 'POST', WIDGETS, { body: widget(`create-${depth}`, levels(depth)) });
      assert.equal(created.status, expected, `create at ${depth}: ${created.body.slice(0, 200)}`);
      // As kubectl sends it: JSON, as application/apply-patch+yaml.
      assert.equal((await apply(`apply-${depth}`, widget(`apply-${depth}`, levels(depth)))).status, expected, `apply at ${depth}`);
    }
    const read = (await call(suite.server, 'GET', `${WIDGETS}/create-${MAX_NESTING_DEPTH}`)).json();
    assert.ok(read.metadata.managedFields.length > 0);
    read.metadata.labels = { edited: 'yes' };
    const put = await call(suite.server, 'PUT', `${WIDGETS}/create-${MAX_NESTING_DEPTH}`, { body: read });
    assert.equal(put.status, 200, put.body.slice(0, 200));
    assert.equal((await call(suite.server, 'GET', WIDGETS)).status, 200);
  });
});

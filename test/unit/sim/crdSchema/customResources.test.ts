// Custom resources through their CRD's schema, over HTTP as clients see it: unknown fields pruned
// (a warning by default, refused under fieldValidation=Strict, kept under
// x-kubernetes-preserve-unknown-fields), defaults applied, values validated with 422 causes in
// kube-apiserver's words.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { CRDS, cronTabCrd } from '../openapi/crdFixtures.ts';

const sim = suiteServer();
const BASE = '/apis/stable.example.com/v1/namespaces/default/crontabs';

function cronTab(name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec, ...extra };
}

describe('custom resources against their schema', () => {
  before(() => {
    sim.cluster.create(CRDS, '', cronTabCrd({
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      template: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { size: { type: 'integer', default: 3 } } },
      ports: { type: 'array', maxItems: 2, items: { type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true } } } },
      tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      volumes: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, size: { type: 'integer' } } } },
    }));
    // The root schema may restrict metadata.name: the CRD's own schema is extended here.
    const crd = structuredClone(sim.cluster.get(CRDS, '', 'crontabs.stable.example.com').object);
    const schema = (crd.spec as { versions: { schema: { openAPIV3Schema: { properties: Record<string, unknown> } } }[] }).versions[0]!.schema.openAPIV3Schema;
    schema.properties['metadata'] = { type: 'object', properties: { name: { type: 'string', maxLength: 12 } } };
    sim.cluster.update(CRDS, '', 'crontabs.stable.example.com', crd);
  });

  it('drops unknown fields with a warning, and applies the schema\'s defaults', async () => {
    const r = await call(sim.server, 'POST', BASE, { body: cronTab('pruned', { cronSpec: '* * * * */5', colour: 'red', ports: [{ port: 'http', extra: 1 }] }, { extraTop: true }) });
    assert.equal(r.status, 201, r.body);
    const obj = r.json();
    assert.deepEqual(obj.spec, { cronSpec: '* * * * */5', ports: [{ port: 'http' }], replicas: 1 });
    assert.equal(obj.extraTop, undefined);
    const warnings = String(r.headers.warning);
    // Warning headers as the API server sends them: 299 - "<text with quotes escaped>".
    assert.match(warnings, /299 - "unknown field \\"spec\.colour\\""/);
    assert.match(warnings, /unknown field \\"spec\.ports\[0\]\.extra\\"/);
    assert.match(warnings, /unknown field \\"extraTop\\"/);
    const stored = sim.cluster.get({ group: 'stable.example.com', version: 'v1', resource: 'crontabs' }, 'default', 'pruned').object;
    assert.deepEqual(stored.spec, obj.spec);
  });

  it('drops nulls the schema does not allow before defaulting (kubebuilder\'s sample has `spec:` with only a comment)', async () => {
    const r = await call(sim.server, 'POST', BASE, { body: cronTab('nulls', { cronSpec: '* * * * *', image: null, replicas: null, labels: { a: null, b: 'x' } }) });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json().spec, { cronSpec: '* * * * *', replicas: 1, labels: { b: 'x' } });
    const bare = await call(sim.server, 'POST', BASE, { body: { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'no-spec' }, spec: null } });
    assert.equal(bare.status, 201, bare.body);
    assert.equal('spec' in bare.json(), false);
  });

  it('keeps what x-kubernetes-preserve-unknown-fields keeps, and defaults inside it', async () => {
    const r = await call(sim.server, 'POST', BASE, { body: cronTab('kept', { cronSpec: '* * * * *', template: { anything: { goes: [1, 2] } } }) });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json().spec.template, { anything: { goes: [1, 2] }, size: 3 });
  });

  it('refuses unknown fields under fieldValidation=Strict, as kubectl --validate=strict asks', async () => {
    const r = await call(sim.server, 'POST', `${BASE}?fieldValidation=Strict`, { body: cronTab('strict', { cronSpec: '* * * * *', colour: 'red' }) });
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.colour"');
    assert.equal((await call(sim.server, 'GET', `${BASE}/strict`)).status, 404);
  });

  it('refuses values the schema does not allow, with each cause as kube-apiserver words it', async () => {
    const r = await call(sim.server, 'POST', BASE, {
      body: cronTab('bad', { cronSpec: 'every minute', image: 'x'.repeat(65), replicas: 0, mode: 'Medium', labels: { a: 1 }, ports: [{}, {}, {}] }),
    });
    assert.equal(r.status, 422, r.body);
    const status = r.json();
    assert.equal(status.reason, 'Invalid');
    const causes = status.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
    assert.deepEqual(causes.sort(), [
      'spec.cronSpec: Invalid value: "every minute": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\'',
      'spec.image: Too long: may not be longer than 64',
      'spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
      'spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"',
      'spec.ports: Too many: 3: must have at most 2 items',
      'spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
    ]);
    assert.match(status.message, /^CronTab\.stable\.example\.com "bad" is invalid: \[/);
  });

  it('requires what the schema requires, on create and on update', async () => {
    const missing = await call(sim.server, 'POST', BASE, { body: cronTab('needs', { image: 'busybox' }) });
    assert.equal(missing.status, 422);
    assert.equal(missing.json().message, 'CronTab.stable.example.com "needs" is invalid: spec.cronSpec: Required value');
    assert.equal((await call(sim.server, 'POST', BASE, { body: cronTab('upd', { cronSpec: '* * * * *' }) })).status, 201);
    const patch = await call(sim.server, 'PATCH', `${BASE}/upd`, { body: { spec: { replicas: 11 } }, contentType: 'application/merge-patch+json' });
    assert.equal(patch.status, 422);
    assert.equal(patch.json().details.causes[0].message, 'Invalid value: 11: spec.replicas in body should be less than or equal to 10');
  });

  it('refuses duplicates in x-kubernetes-list-type set and map lists, and names longer than the schema allows', async () => {
    const r = await call(sim.server, 'POST', BASE, {
      body: cronTab('a-long-name-here', { cronSpec: '* * * * *', tags: ['a', 'b', 'a'], volumes: [{ name: 'data', size: 1 }, { name: 'data', size: 2 }] }),
    });
    assert.equal(r.status, 422, r.body);
    assert.deepEqual(r.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`).sort(), [
      'metadata.name: Too long: may not be longer than 12',
      'spec.tags[2]: Duplicate value: "a"',
      'spec.volumes[1]: Duplicate value: map[string]interface {}{"name":"data"}',
    ]);
  });

  it('accepts an int-or-string field holding either', async () => {
    const r = await call(sim.server, 'POST', BASE, { body: cronTab('ports', { cronSpec: '* * * * *', ports: [{ port: 80 }, { port: 'http' }] }) });
    assert.equal(r.status, 201, r.body);
    const bad = await call(sim.server, 'POST', BASE, { body: cronTab('ports2', { cronSpec: '* * * * *', ports: [{ port: true }] }) });
    assert.equal(bad.status, 422);
    assert.match(bad.json().details.causes[0].message, /must be of type integer or string: "boolean"/);
  });
});

// Bodies the API server refuses, refused with its words: malformed JSON (Go's scanner messages),
// a document of the wrong shape, a field named twice under strict validation, a patch that cannot
// be decoded or applied.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';

const message = async (method: string, path: string, body: string, contentType = 'application/json') => {
  const r = await call(suite.server, method, path, { body, contentType });
  return `${r.status} ${r.json().message as string}`;
};

describe('bodies the API server refuses', () => {
  it('malformed JSON names the character Go\'s decoder stopped at and the start of the body', async () => {
    assert.equal(await message('POST', CMS, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},}'),
      '400 the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: invalid character \'}\' looking for beginning of object key string ({"apiVersion":"v1","kind":"Con ...)');
    assert.equal(await message('POST', CMS, '[1,2]'),
      '400 the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b312c325d)');
  });

  it('a field named twice is refused under fieldValidation=Strict (kubectl\'s default) and warned about otherwise', async () => {
    const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"twice","labels":{"a":"1","a":"2"}},"foo":1}';
    assert.equal(await message('POST', `${CMS}?fieldValidation=Strict`, body),
      '400 ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.labels.a", unknown field "foo"');
    // Listed as Go's decoder meets them in the body: here the unknown field comes first.
    const deployment = '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"unknownField":"foo","replicas":2,"replicas":3,'
      + '"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}';
    assert.equal(await message('POST', '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict', deployment),
      '400 Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.unknownField", duplicate field "spec.replicas"');
    const warned = await call(suite.server, 'POST', CMS, { body });
    assert.equal(warned.status, 201);
    assert.match(String(warned.headers['warning']), /299 - "duplicate field \\"metadata.labels.a\\""/);
  });

  it('patches that cannot be decoded or applied', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' } } })).status, 201);
    assert.equal(await message('PATCH', `${CMS}/p`, 'not json', 'application/merge-patch+json'), "400 error decoding patch: invalid character 'o' in literal null (expecting 'u')");
    assert.equal(await message('PATCH', `${CMS}/p`, 'not json', 'application/strategic-merge-patch+json'), "400 invalid character 'o' in literal null (expecting 'u')");
    assert.equal(await message('PATCH', `${CMS}/p`, '{"op":"add"}', 'application/json-patch+json'), '400 error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
    assert.equal(await message('PATCH', `${CMS}/p`, '[{"op":"test","path":"/data","value":1}]', 'application/json-patch+json'), '422 the server rejected our request due to an error in our request');
  });

  it('a Content-Type with no media type in it (";;;=", "; charset=utf-8") is a 415, as mime.ParseMediaType fails it, and nothing is stored', async () => {
    for (const contentType of [';;;=', '; charset=utf-8']) {
      const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"typeless"}}`;
      assert.equal(await message('POST', CMS, body, contentType),
        '415 the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf', contentType);
    }
    assert.equal((await call(suite.server, 'GET', `${CMS}/typeless`)).status, 404);
  });

  it('a CustomResourceDefinition of the wrong shape is a 400 in encoding/json\'s words, and a null where a struct goes is its zero value, never a 500', async () => {
    const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const crd = (spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.shape.example.com' }, spec: { group: 'shape.example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' }, ...spec } });
    const schema = (openAPIV3Schema: unknown) => ({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }] });
    const handled = 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal';
    assert.equal(await message('POST', CRDS, crd({ versions: 'v1' })), `400 ${handled} string into Go struct field CustomResourceDefinitionSpec.spec.versions of type []v1.CustomResourceDefinitionVersion`);
    assert.equal(await message('POST', CRDS, crd({ versions: [true] })), `400 ${handled} bool into Go struct field CustomResourceDefinitionSpec.spec.versions of type v1.CustomResourceDefinitionVersion`);
    assert.equal(await message('POST', CRDS, crd(schema({ type: 'object', properties: { spec: 7 } }))), `400 ${handled} number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.spec of type v1.JSONSchemaProps`);
    for (const spec of [{ versions: [null] }, schema({ type: 'object', properties: { spec: null } })]) {
      const r = await call(suite.server, 'POST', `${CRDS}?dryRun=All`, { body: crd(spec), contentType: 'application/json' });
      assert.ok(r.status < 500, `${r.status} ${r.body}`);
    }
    assert.equal((await call(suite.server, 'GET', `${CRDS}/gadgets.shape.example.com`)).status, 404);
  });
});

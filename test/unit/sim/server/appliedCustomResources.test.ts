// Server-side apply of custom resources reads the configuration against the CRD's schema as
// structured-merge-diff does (undeclared fields refused whatever fieldValidation says, ObjectMeta
// checked at the root and in embedded resources, anything under x-kubernetes-preserve-unknown-fields
// taken), then reads the YAML again strictly: a key named twice is refused or warned about.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const APPLY = 'application/apply-patch+yaml';

const PORTS = {
  type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
  items: { type: 'object', required: ['containerPort', 'protocol'], properties: { containerPort: { type: 'integer' }, name: { type: 'string' }, protocol: { type: 'string' } } },
};

async function crd(plural: string, spec: Record<string, unknown>): Promise<void> {
  const kind = plural.slice(0, -1);
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec } } };
  const r = await call(suite.server, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.example.com` },
      spec: { group: 'example.com', scope: 'Cluster', names: { plural, singular: kind, kind, listKind: `${kind}List` }, versions: [{ name: 'v1', served: true, storage: true, schema }] },
    },
  });
  assert.equal(r.status, 201, r.body);
}

const apply = (plural: string, name: string, yaml: string, fieldValidation = 'Strict') =>
  call(suite.server, 'PATCH', `/apis/example.com/v1/${plural}/${name}?fieldManager=m&fieldValidation=${fieldValidation}`, { body: yaml, contentType: APPLY });

describe('an applied custom resource', () => {
  it('naming a field its schema does not declare is refused, whatever fieldValidation says', async () => {
    await crd('strictas', { type: 'object', properties: { foo: { type: 'string' }, ports: PORTS } });
    const yaml = 'apiVersion: example.com/v1\nkind: stricta\nmetadata:\n  name: a\nunknownField: x\nspec:\n  foo: f\n  ports:\n  - containerPort: 80\n    protocol: TCP\n    extra: 1\n';
    for (const mode of ['Strict', 'Ignore']) {
      const r = await apply('strictas', 'a', yaml, mode);
      assert.equal(r.status, 500, r.body);
      assert.equal(r.json().message, 'failed to create typed patch object (/a; example.com/v1, Kind=stricta): errors:\n'
        + '  .unknownField: field not declared in schema\n  .spec.ports[containerPort=80,protocol="TCP"].extra: field not declared in schema');
    }
  });

  it('has ObjectMeta at its root and in an embedded resource, even under preserved unknown fields', async () => {
    await crd('embeddas', {
      type: 'object', 'x-kubernetes-preserve-unknown-fields': true,
      properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata: { type: 'object', properties: { name: { type: 'string' } } } } } },
    });
    const yaml = 'apiVersion: example.com/v1\nkind: embedda\nmetadata:\n  name: e\n  unknownMeta: x\nspec:\n  anything: goes\n'
      + '  template:\n    apiversion: foo/v1\n    kind: Sub\n    metadata:\n      unknownSubMeta: x\n      namespace: default\n';
    const r = await apply('embeddas', 'e', yaml);
    assert.equal(r.status, 500, r.body);
    assert.equal(r.json().message, 'failed to create typed patch object (/e; example.com/v1, Kind=embedda): errors:\n'
      + '  .metadata.unknownMeta: field not declared in schema\n  .spec.template.metadata.unknownSubMeta: field not declared in schema');
    const fine = await apply('embeddas', 'e', 'apiVersion: example.com/v1\nkind: embedda\nmetadata:\n  name: e\nspec:\n  anything: goes\n');
    assert.equal(fine.status, 201, fine.body);
  });

  it('naming a key twice is refused under Strict with yaml.v2\'s line, warned about under Warn, and the last value counts', async () => {
    await crd('twiceas', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { foo: { type: 'string' } } });
    const yaml = '\napiVersion: example.com/v1\nkind: twicea\nmetadata:\n  name: t\nspec:\n  unknown: uk1\n  foo: foo1\n  foo: foo2\n';
    const strict = await apply('twiceas', 't', yaml);
    assert.equal(strict.status, 400, strict.body);
    assert.equal(strict.json().message, 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 9: key "foo" already set in map');
    const warned = await apply('twiceas', 't', yaml, 'Warn');
    assert.equal(warned.status, 201, warned.body);
    assert.match(String(warned.headers['warning']), /line 9: key \\"foo\\" already set in map/);
    assert.equal(warned.json().spec.foo, 'foo2');
  });
});

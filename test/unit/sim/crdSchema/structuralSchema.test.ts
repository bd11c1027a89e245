// CRDs whose schemas kube-apiserver would refuse are refused with its field paths and words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { CRD, newCluster } from '../store/helpers.ts';
import { cronTabCrd } from '../openapi/crdFixtures.ts';

function withSchema(schema: unknown): KubeObject {
  const crd = cronTabCrd();
  (crd.spec as { versions: { schema?: unknown }[] }).versions[0]!.schema = schema === undefined ? undefined : { openAPIV3Schema: schema };
  return crd;
}

function refusal(crd: KubeObject): { message: string; causes: { field: string; message: string; reason: string }[] } {
  const { cluster } = newCluster();
  try {
    cluster.create(CRD, '', crd);
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, 422);
    return { message: err.message, causes: (err.status?.details?.causes ?? []) as { field: string; message: string; reason: string }[] };
  }
  assert.fail('the CRD was accepted');
}

test('a field without a type is refused as not structural', () => {
  const r = refusal(withSchema({ type: 'object', properties: { spec: { properties: { size: { type: 'integer' } } } } }));
  assert.equal(r.message, 'CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields');
  assert.deepEqual(r.causes, [{ reason: 'FieldValueRequired', field: 'spec.versions[0].schema.openAPIV3Schema.properties[spec].type', message: 'Required value: must not be empty for specified object fields' }]);
});

test('a version without a schema is refused: apiextensions.k8s.io/v1 requires one', () => {
  const r = refusal(withSchema(undefined));
  assert.deepEqual(r.causes.map((c) => `${c.field}: ${c.message}`), ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
});

test('root, array items, $ref, additionalProperties beside properties and metadata inside a value validation are refused in the validator\'s words', () => {
  const r = refusal(withSchema({
    type: 'array',
    items: { $ref: '#/definitions/x' },
    properties: {
      list: { type: 'array' },
      spec: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
      template: { type: 'object', allOf: [{ properties: { metadata: {} } }] },
    },
  }));
  const lines = r.causes.map((c) => `${c.field}: ${c.message}`);
  for (const expected of [
    'spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "array": must be object at the root',
    'spec.versions[0].schema.openAPIV3Schema.items.type: Required value: must not be empty for specified array items',
    'spec.versions[0].schema.openAPIV3Schema.properties[list].items: Required value: must be specified',
    'spec.versions[0].schema.openAPIV3Schema.properties[template].allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context',
    'spec.versions[0].schema.openAPIV3Schema.items.$ref: Forbidden: $ref is not supported',
    'spec.versions[0].schema.openAPIV3Schema.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
  ]) assert.ok(lines.includes(expected), `missing ${expected} in\n${lines.join('\n')}`);
});

test('a metadata field below the root is accepted, as controller-gen writes an embedded ObjectMeta (a CronJob\'s jobTemplate); an embedded resource\'s metadata must be an object', () => {
  const { cluster } = newCluster();
  const objectMeta = { type: 'object' };
  cluster.create(CRD, '', withSchema({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          jobTemplate: {
            type: 'object',
            properties: { metadata: objectMeta, spec: { type: 'object', properties: { template: { type: 'object', properties: { metadata: objectMeta } } } } },
          },
        },
      },
    },
  }));
  const r = refusal(withSchema({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata: { type: 'string' } } } } }));
  assert.deepEqual(r.causes.map((c) => `${c.field}: ${c.message}`), ['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[metadata].type: Invalid value: "string": must be object']);
});

test('types inside anyOf are refused; x-kubernetes-int-or-string with its anyOf is structural', () => {
  const r = refusal(withSchema({ type: 'object', properties: { spec: { type: 'object', anyOf: [{ type: 'object', required: ['a'] }] } } }));
  assert.deepEqual(r.causes.map((c) => `${c.field}: ${c.message}`), ['spec.versions[0].schema.openAPIV3Schema.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural']);
  const { cluster } = newCluster();
  cluster.create(CRD, '', withSchema({ type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } } }));
});

test('an update that makes the schema non-structural is refused and the CRD stays as it was', () => {
  const { cluster } = newCluster();
  cluster.create(CRD, '', cronTabCrd());
  // As established just after its create.
  const created = cluster.get(CRD, '', 'crontabs.stable.example.com').object;
  const broken = withSchema({ type: 'object', properties: { spec: { description: 'no type' } } });
  assert.throws(() => cluster.update(CRD, '', 'crontabs.stable.example.com', { ...broken, metadata: created.metadata }), (e: unknown) => e instanceof ApiError && e.code === 422);
  assert.equal(cluster.get(CRD, '', 'crontabs.stable.example.com').object.metadata.resourceVersion, created.metadata.resourceVersion);
});

test('a default its own schema refuses is refused with the CRD', () => {
  const r = refusal(withSchema({ type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', minimum: 1, default: 0 } } } } }));
  assert.deepEqual(r.causes.map((c) => `${c.field}: ${c.message}`), [
    'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value: 0:  in body should be greater than or equal to 1',
  ]);
});

test('list and map types must fit the field: map lists need keys the items require', () => {
  const r = refusal(withSchema({
    type: 'object',
    properties: {
      tags: { type: 'string', 'x-kubernetes-list-type': 'set' },
      volumes: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' } } } },
      owners: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['id'], items: { type: 'object', properties: { name: { type: 'string' } } } },
    },
  }));
  assert.deepEqual(r.causes.map((c) => `${c.field}: ${c.message}`).sort(), [
    'spec.versions[0].schema.openAPIV3Schema.properties[owners].x-kubernetes-list-map-keys: Invalid value: []string{"id"}: entries must all be names of item properties',
    'spec.versions[0].schema.openAPIV3Schema.properties[tags].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified',
    'spec.versions[0].schema.openAPIV3Schema.properties[volumes].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
  ]);
});

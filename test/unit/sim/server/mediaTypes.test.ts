import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { bodyFormatOf, negotiateDiscoveryRendering, negotiateObjectRendering, patchTypeOf } from '../../../../src/sim/server/mediaTypes.ts';

const KUBECTL_GET = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

test('kubectl get asks for a Table first', () => {
  assert.equal(negotiateObjectRendering(KUBECTL_GET), 'table');
  assert.equal(negotiateObjectRendering('application/json'), 'object');
  assert.equal(negotiateObjectRendering('application/json, */*'), 'object');
  assert.equal(negotiateObjectRendering(undefined), 'object');
  assert.equal(negotiateObjectRendering('application/vnd.kubernetes.protobuf,application/json'), 'object');
  // An unknown `as=` is skipped in favour of the next acceptable range.
  assert.equal(negotiateObjectRendering('application/json;as=Foo;g=x;v=v1,application/json'), 'object');
});

test('protobuf-only clients get 406', () => {
  assert.throws(() => negotiateObjectRendering('application/vnd.kubernetes.protobuf'), (e: unknown) => e instanceof ApiError && e.code === 406);
});

test('aggregated discovery when asked first, classic otherwise', () => {
  assert.equal(negotiateDiscoveryRendering('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json'), 'aggregated-v2beta1');
  assert.equal(
    negotiateDiscoveryRendering('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json'),
    'aggregated-v2',
  );
  assert.equal(negotiateDiscoveryRendering('application/json, */*'), 'legacy');
});

test('patch and body content types', () => {
  assert.equal(patchTypeOf('application/merge-patch+json'), 'merge');
  assert.equal(patchTypeOf('application/json-patch+json; charset=utf-8'), 'json');
  assert.equal(patchTypeOf('application/strategic-merge-patch+json'), 'strategic');
  assert.equal(patchTypeOf('application/apply-patch+yaml'), 'apply');
  assert.throws(() => patchTypeOf('application/json'), (e: unknown) => e instanceof ApiError && e.code === 415);
  assert.equal(bodyFormatOf(undefined), 'json');
  assert.equal(bodyFormatOf('application/yaml'), 'yaml');
  assert.equal(bodyFormatOf('application/vnd.kubernetes.protobuf'), 'protobuf');
  assert.throws(() => bodyFormatOf('application/cbor'), (e: unknown) => e instanceof ApiError && e.code === 415);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonEqual } from '../../../../src/sim/vocabulary/jsonEqual.ts';

test('map key order does not matter, list order does', () => {
  assert.equal(jsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }), true);
  assert.equal(jsonEqual({ l: [1, 2] }, { l: [2, 1] }), false);
});

test('a key holding undefined is absent, as in the JSON it would be written as', () => {
  assert.equal(jsonEqual({ a: 1, b: undefined }, { a: 1 }), true);
  assert.equal(jsonEqual({ a: 1 }, { a: 1, b: undefined }), true);
  assert.equal(jsonEqual({ a: 1, b: undefined }, { a: 1, c: 2 }), false);
});

test('different values, extra keys and types are unequal', () => {
  assert.equal(jsonEqual({ a: 1 }, { a: 2 }), false);
  assert.equal(jsonEqual({ a: 1 }, { a: 1, b: null }), false);
  assert.equal(jsonEqual({ a: [] }, { a: {} }), false);
  assert.equal(jsonEqual('1', 1), false);
});

test('a "__proto__" key is data, compared as any other key', () => {
  const withProto = JSON.parse('{"__proto__": {}}') as Record<string, unknown>;
  assert.equal(jsonEqual(withProto, { other: {} }), false);
  assert.equal(jsonEqual(withProto, JSON.parse('{"__proto__": {}}')), true);
  assert.equal(jsonEqual(withProto, {}), false);
});

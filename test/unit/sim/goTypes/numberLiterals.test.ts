import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayHoldLiterals, numberLiteral, parseJsonKeepingLiterals } from '../../../../src/sim/goTypes/numberLiterals.ts';

// A number Go refuses for an integer field (1e3, 2.0, 2^63) is kept as written; one inside a
// string (an image tag) is no number, and a body with a very long string is scanned in linear time.

test('a literal JSON.parse cannot keep is remembered as written; one in a string is no number', () => {
  const doc = parseJsonKeepingLiterals('{"spec":{"replicas":1e3,"image":"nginx:1.25"}}') as { spec: object };
  assert.equal(numberLiteral(doc.spec, 'replicas'), '1e3');
  assert.equal(numberLiteral(doc.spec, 'image'), undefined);
  assert.equal(mayHoldLiterals(parseJsonKeepingLiterals('{"spec":{"image":"nginx:1.25","replicas":3}}') as object), false);
});

test('a body with a string of 12 MB is scanned without overflowing the stack', () => {
  const text = JSON.stringify({ data: { blob: 'a1.5\\"'.repeat(2_000_000) }, spec: { replicas: 2.0 } }).replace('"replicas":2', '"replicas":2.0');
  const doc = parseJsonKeepingLiterals(text) as { spec: object };
  assert.equal(numberLiteral(doc.spec, 'replicas'), '2.0');
});

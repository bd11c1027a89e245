import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duplicateFields, goJsonSyntaxError, summarizeBody } from '../../../../src/sim/server/goJson.ts';

const syntax = (text: string) => goJsonSyntaxError(Buffer.from(text));

test('syntax errors are worded as Go\'s scanner words them', () => {
  assert.equal(syntax('not json'), "invalid character 'o' in literal null (expecting 'u')");
  assert.equal(syntax('{"a":1,}'), "invalid character '}' looking for beginning of object key string");
  assert.equal(syntax('{"a":1'), 'unexpected end of JSON input');
  assert.equal(syntax('{"a":1 "b":2}'), 'invalid character \'"\' after object key:value pair');
  assert.equal(syntax('{"a" 1}'), "invalid character '1' after object key");
  assert.equal(syntax('[1 2]'), "invalid character '2' after array element");
  assert.equal(syntax('{"a":tru}'), "invalid character '}' in literal true (expecting 'e')");
  assert.equal(syntax('{"a":"\\x"}'), "invalid character 'x' in string escape code");
  assert.equal(syntax('{"a":01}'), "invalid character '1' after object key:value pair");
  assert.equal(syntax('{"a":-x}'), "invalid character 'x' in numeric literal");
  assert.equal(syntax('{} x'), "invalid character 'x' after top-level value");
  assert.equal(goJsonSyntaxError(Buffer.from([0x81])), "invalid character '\\u0081' looking for beginning of value");
  assert.equal(syntax('{"a":1}'), undefined);
});

test('a body is summarized as apimachinery does: an object\'s first 30 characters, anything else in hex', () => {
  assert.equal(summarizeBody(Buffer.from('not json')), '6e6f74206a736f6e');
  assert.equal(summarizeBody(Buffer.from('{"apiVersion":"v1","kind":"ConfigMap"}')), '{"apiVersion":"v1","kind":"Con ...');
  assert.equal(summarizeBody(Buffer.alloc(0)), '<empty>');
});

test('fields named twice are found with their paths, in document order', () => {
  const text = '{"metadata":{"name":"a","name":"b","labels":{"x":"1","x":"2"}},"spec":{"replicas":1,"replicas":2,"containers":[{"image":"a"},{"name":"c","image":"x","image":"y"}]}}';
  assert.deepEqual(duplicateFields(JSON.parse(text), text), ['metadata.name', 'metadata.labels.x', 'spec.replicas', 'spec.containers[1].image']);
  const clean = '{"a":{"b":[{"c":1},{"c":2}]},"s":"\\"k\\":"}';
  assert.deepEqual(duplicateFields(JSON.parse(clean), clean), []);
});

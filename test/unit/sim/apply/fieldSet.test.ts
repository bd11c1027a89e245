// Field sets as managedFields encode them: the order keys are written in, how conflict messages
// print paths, and which fieldsV1 the API server would not read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet, printPath } from '../../../../src/sim/apply/fieldSet.ts';
import { keyElement, valueElement } from '../../../../src/sim/apply/pathElement.ts';

test('fieldsV1 keys: fields first (by name), then keys (numbers by value), then values; `.` when a member has children', () => {
  const set = new FieldSet();
  set.insert(['f:spec', 'f:ports', keyElement([['port', 443], ['protocol', 'TCP']])]);
  set.insert(['f:spec', 'f:ports', keyElement([['protocol', 'TCP'], ['port', 80]])]);
  set.insert(['f:spec', 'f:ports', keyElement([['port', 80], ['protocol', 'TCP']]), 'f:port']);
  set.insert(['f:metadata', 'f:finalizers', valueElement('b')]);
  set.insert(['f:metadata', 'f:finalizers', valueElement('a')]);
  const encoded = JSON.stringify(set.toFieldsV1());
  assert.equal(encoded, '{"f:metadata":{"f:finalizers":{"v:\\"a\\"":{},"v:\\"b\\"":{}}},"f:spec":{"f:ports":{'
    + '"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{}},"k:{\\"port\\":443,\\"protocol\\":\\"TCP\\"}":{}}}}');
  assert.deepEqual(FieldSet.fromFieldsV1(JSON.parse(encoded)).toFieldsV1(), JSON.parse(encoded), 'reads back what it writes');
});

test('paths print as kubectl shows them in conflicts', () => {
  assert.equal(printPath(['f:spec', 'f:template', 'f:spec', 'f:containers', keyElement([['name', 'web']]), 'f:image']), '.spec.template.spec.containers[name="web"].image');
  assert.equal(printPath(['f:spec', 'f:ports', keyElement([['port', 80], ['protocol', 'TCP']])]), '.spec.ports[port=80,protocol="TCP"]');
  assert.equal(printPath(['f:metadata', 'f:finalizers', valueElement('x')]), '.metadata.finalizers[="x"]');
});

test('set operations: union, difference and intersection of owned fields', () => {
  const a = FieldSet.fromFieldsV1({ 'f:data': { '.': {}, 'f:x': {}, 'f:y': {} } });
  const b = FieldSet.fromFieldsV1({ 'f:data': { 'f:y': {}, 'f:z': {} } });
  assert.deepEqual(a.difference(b).toFieldsV1(), { 'f:data': { '.': {}, 'f:x': {} } });
  assert.deepEqual(a.intersection(b).toFieldsV1(), { 'f:data': { 'f:y': {} } });
  assert.deepEqual(a.union(b).toFieldsV1(), { 'f:data': { '.': {}, 'f:x': {}, 'f:y': {}, 'f:z': {} } });
  assert.equal(a.difference(a).isEmpty(), true);
});

test('fieldsV1 with an unknown path element is refused', () => {
  assert.throws(() => FieldSet.fromFieldsV1({ 'x:bad': {} }), /invalid path element "x:bad"/);
  assert.throws(() => FieldSet.fromFieldsV1({ 'f:a': [] }), /expected an object/);
});

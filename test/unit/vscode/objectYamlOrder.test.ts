import { test } from 'node:test';
import assert from 'node:assert/strict';
import { objectToYaml } from '../../../src/vscode/objectYaml.ts';

// An object from an informer's list gets apiVersion and kind added after its other fields (a
// list's items come without them): its document ended with them, where nobody looks.

test('a listed object\'s document starts with apiVersion and kind, as kubectl prints it', () => {
  const listed = { metadata: { name: 'payments-api', namespace: 'demo' }, type: 'Opaque', data: { apiKey: 'c2VjcmV0' }, kind: 'Secret', apiVersion: 'v1' };
  const lines = objectToYaml(listed).split('\n');
  assert.deepEqual(lines.slice(0, 4), ['apiVersion: v1', 'kind: Secret', 'metadata:', '  name: payments-api']);
  assert.match(objectToYaml(listed), /apiKey: "<redacted: 6 bytes>"/);
  assert.equal(objectToYaml(listed, false, true).split('\n')[0], 'apiVersion: v1');
});

test('an object without them is left as it is', () => {
  assert.equal(objectToYaml({ metadata: { name: 'x' } }).split('\n')[0], 'metadata:');
});

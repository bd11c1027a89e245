import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWhyCommand, parseWhyCommand } from '../../../src/debug/whyCommand.ts';

// What `why …` typed in the Debug Console asks about; anything else stays a JavaScript expression.

const stopped = { kind: 'Deployment', key: 'default/web' };

test('why alone asks about the stopped reconcile\'s object; a key alone is of its kind', () => {
  assert.deepEqual(parseWhyCommand('why', stopped, 'Deployment'), stopped);
  assert.deepEqual(parseWhyCommand('why default/api', stopped, undefined), { kind: 'Deployment', key: 'default/api' });
  assert.deepEqual(parseWhyCommand('why default/api', undefined, 'ReplicaSet'), { kind: 'ReplicaSet', key: 'default/api' });
});

test('why with a kind and a resourceVersion', () => {
  assert.deepEqual(parseWhyCommand('  why ConfigMap default/app-settings@152 ', undefined, undefined), { kind: 'ConfigMap', key: 'default/app-settings', resourceVersion: '152' });
});

test('not a why question: evaluated as an expression', () => {
  for (const line of ['whyNot()', 'obj.why', 'typeof why', '']) {
    assert.equal(isWhyCommand(line), false, line);
    assert.equal(parseWhyCommand(line, stopped, 'Deployment'), undefined, line);
  }
});

test('a why question that cannot be answered says how to ask', () => {
  assert.throws(() => parseWhyCommand('why', undefined, 'Deployment'), /not stopped on a reconcile: ask about an object, why \[KIND\] NAMESPACE\/NAME/);
  assert.throws(() => parseWhyCommand('why a b c', stopped, undefined), /^Error: why \[KIND\]/);
  assert.throws(() => parseWhyCommand('why default/web', undefined, undefined), /which kind\?/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goSetupNotice } from '../../../src/vscode/commands/goSetupNotice.ts';

// What "Set Up This Go Project" says when it is done, for a folder opened with a trailing slash
// (`code-server ~/memcached-operator/`) as much as without.

const setup = {
  changes: [
    { file: 'go.mod', status: 'changed' as const, text: 'require …' },
    { file: 'cmd/main.go', status: 'changed' as const, text: 'Wrap' },
    { file: 'PATH', status: 'manual' as const, text: 'controller-lab is not on it' },
  ],
  next: ['make test', 'controller-lab run ./cmd --sim'],
};

test('names the project by its folder, with or without a trailing slash', () => {
  const expected = 'Controller Lab: set up memcached-operator (2 changes, 1 to do by hand). Next: make test, then controller-lab run ./cmd --sim.';
  assert.equal(goSetupNotice('/home/me/memcached-operator', setup), expected);
  assert.equal(goSetupNotice('/home/me/memcached-operator/', setup), expected);
});

test('says when there was nothing to change', () => {
  assert.match(goSetupNotice('/p/app', { changes: [{ file: 'go.mod', status: 'unchanged' as const, text: '' }], next: [] }), /^Controller Lab: set up app \(nothing to change\)\./);
});

test('says the next commands run in a VS Code terminal when only its controller-lab is there', () => {
  assert.match(goSetupNotice('/p/app', setup, true), /\. Next, in a VS Code terminal: make test, then /);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { programName } from '../../../src/runtime/controllerTarget.ts';

// Check and the debugger name the program in their notifications: a kubebuilder project's was
// "cmd" ("Checking cmd", "found 1 bug(s) in cmd"), as every such project's is.

test('kubebuilder\'s cmd is named by its project', () => {
  assert.equal(programName('/home/me/shop/cmd'), 'shop');
  assert.equal(programName('/home/me/shop/cmd/'), 'shop');
  assert.equal(programName('/home/me/shop/cmd/main.go'), 'shop');
});

test('other programs keep their own names', () => {
  assert.equal(programName('/w/examples/replicaset-controller/controller.ts'), 'controller.ts');
  assert.equal(programName('/home/me/op/cmd/manager'), 'manager');
  assert.equal(programName('/home/me/op/main.go'), 'op');
  assert.equal(programName('example.com/op/cmd/manager'), 'manager');
});

test('a relative cmd with nothing above it stays cmd', () => {
  assert.equal(programName('./cmd'), 'cmd');
  assert.equal(programName('cmd'), 'cmd');
});

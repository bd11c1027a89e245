import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controllerTarget, notAControllerFile } from '../../../src/runtime/controllerTarget.ts';

// Which controllers are Go programs: what `controller-lab run X` and the debugger's `program` accept.

test('a .go file, a directory with go.mod or a package main, and a package path are Go; anything else is TypeScript', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-target-'));
  try {
    writeFileSync(join(root, 'go.mod'), 'module example.com/op\n\ngo 1.26\n');
    mkdirSync(join(root, 'cmd', 'manager'), { recursive: true });
    writeFileSync(join(root, 'cmd', 'manager', 'main.go'), '// the manager\npackage main\n\nfunc main() {}\n');
    mkdirSync(join(root, 'internal'));
    writeFileSync(join(root, 'internal', 'lib.go'), 'package internal\n');
    writeFileSync(join(root, 'controller.ts'), 'export default {};\n');

    assert.deepEqual(controllerTarget('./cmd/manager', root), { language: 'go', packageDir: join(root, 'cmd', 'manager'), moduleDir: root, display: './cmd/manager' });
    assert.deepEqual(controllerTarget('cmd/manager/main.go', root), { language: 'go', packageDir: join(root, 'cmd', 'manager'), moduleDir: root, display: 'cmd/manager/main.go' });
    assert.deepEqual(controllerTarget('.', root), { language: 'go', packageDir: root, moduleDir: root, display: '.' });
    // kubebuilder's layout: the module root names the program in ./cmd.
    mkdirSync(join(root, 'cmd', 'main'), { recursive: true });
    writeFileSync(join(root, 'cmd', 'main.go'), 'package main\n\nfunc main() {}\n');
    assert.deepEqual(controllerTarget('.', root), { language: 'go', packageDir: join(root, 'cmd'), moduleDir: root, display: '.' });
    assert.deepEqual(controllerTarget('example.com/op/cmd/manager', root), { language: 'go', packageDir: 'example.com/op/cmd/manager', moduleDir: root, display: 'example.com/op/cmd/manager' });
    assert.deepEqual(controllerTarget('controller.ts', root), { language: 'typescript', file: join(root, 'controller.ts') });
    // A Go directory that is not a main package and has no go.mod is no program.
    assert.equal(controllerTarget('internal', root).language, 'typescript');
    assert.equal(controllerTarget('missing.ts', root).language, 'typescript');
    assert.equal(controllerTarget('my.dir/missing.ts', root).language, 'typescript');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a path that is no controller file says what it is: missing, a Go package that is no program, a directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-target-'));
  try {
    mkdirSync(join(root, 'internal', 'controller'), { recursive: true });
    writeFileSync(join(root, 'internal', 'controller', 'doc.go'), '// Package controller reconciles.\npackage controller\n');
    mkdirSync(join(root, 'empty'));
    writeFileSync(join(root, 'controller.ts'), 'export default {};\n');

    assert.equal(notAControllerFile(join(root, 'controller.ts')), undefined);
    assert.equal(notAControllerFile(join(root, 'missing.ts')), `controller file not found: ${join(root, 'missing.ts')}`);
    assert.match(notAControllerFile(join(root, 'internal', 'controller')) ?? '', /internal\/controller is Go package controller, not a program: give the directory of the program's main package/);
    assert.match(notAControllerFile(join(root, 'empty')) ?? '', /empty is a directory: give a controller's \.ts file, or a Go program's directory/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

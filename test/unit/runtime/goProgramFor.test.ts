import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goProgramsFor } from '../../../src/runtime/goProgramFor.ts';

// "Debug Controller" with a kubebuilder project's controller file open: the program to run is the
// module's main package that calls controllerlab.Wrap, not the controller's own package.

test('a Go file outside package main runs as the module program that calls controllerlab.Wrap, with the project scenario', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-goprogram-'));
  try {
    writeFileSync(join(root, 'go.mod'), 'module example.com/op\n\ngo 1.26\n');
    mkdirSync(join(root, 'cmd'));
    writeFileSync(join(root, 'cmd', 'main.go'), 'package main\n\nfunc main() {}\n');
    mkdirSync(join(root, 'internal', 'controller'), { recursive: true });
    const controller = join(root, 'internal', 'controller', 'widget_controller.go');
    writeFileSync(controller, 'package controller\n');
    mkdirSync(join(root, 'hack', 'tool'), { recursive: true });
    writeFileSync(join(root, 'hack', 'tool', 'main.go'), 'package main\n\nfunc main() {}\n');

    // Not set up yet: no program calls Wrap, and the message names the command that adds it.
    const before = goProgramsFor(controller);
    assert.ok('problem' in before);
    assert.match(before.problem, /internal\/controller\/widget_controller\.go is not a main package/);
    assert.match(before.problem, /cmd, hack\/tool/);
    assert.match(before.problem, /Set Up This Go Project/);

    writeFileSync(join(root, 'cmd', 'main.go'), 'package main\n\nfunc main() {\n\tmgr = controllerlab.Wrap(mgr)\n}\n');
    mkdirSync(join(root, 'controller-lab'));
    writeFileSync(join(root, 'controller-lab', 'scenario.yaml'), 'objects: []\n');
    assert.deepEqual(goProgramsFor(controller), { programs: [{ program: join(root, 'cmd'), scenario: join(root, 'controller-lab', 'scenario.yaml') }] });
    // The module's folder (no editor open) and a main package's own file name the same program.
    assert.deepEqual(goProgramsFor(root), goProgramsFor(controller));
    assert.deepEqual(goProgramsFor(join(root, 'cmd', 'main.go')), goProgramsFor(controller));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a Go file in no module says so', () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-goprogram-'));
  try {
    writeFileSync(join(root, 'lib.go'), 'package lib\n');
    const choice = goProgramsFor(join(root, 'lib.go'));
    assert.ok('problem' in choice);
    assert.match(choice.problem, /in no Go module/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

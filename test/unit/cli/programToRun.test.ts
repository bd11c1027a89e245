import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { programToRun } from '../../../src/cli/programToRun.ts';

// `run` and `check` given a kubebuilder controller's file or folder run the module's program that
// calls controllerlab.Wrap, as F5 on that file does in VS Code, and say so.

function kubebuilderModule(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cl-program-to-run-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const d of ['cmd', 'internal/controller', 'hack']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'go.mod'), 'module example.com/wh\n\ngo 1.26\n');
  writeFileSync(join(dir, 'cmd/main.go'), 'package main\n\nfunc main() {\n\tmgr = controllerlab.Wrap(mgr)\n}\n');
  writeFileSync(join(dir, 'internal/controller/frigate_controller.go'), 'package controller\n');
  writeFileSync(join(dir, 'internal/controller/suite_test.go'), 'package controller\n');
  writeFileSync(join(dir, 'controller.ts'), 'export default {};\n');
  return dir;
}

test("a controller's file or folder runs the module's program that calls controllerlab.Wrap, saying so", (t) => {
  const dir = kubebuilderModule(t);
  assert.deepEqual(programToRun('internal/controller/frigate_controller.go', dir), {
    spec: './cmd',
    note: "internal/controller/frigate_controller.go is not a main package: running ./cmd, the module's program that calls controllerlab.Wrap",
  });
  assert.equal(programToRun('internal/controller', dir).spec, './cmd');
  assert.equal(programToRun('frigate_controller.go', join(dir, 'internal/controller')).spec, '../../cmd');
});

test('a program, a module root, a TypeScript file, a package path and a missing path stay as given', (t) => {
  const dir = kubebuilderModule(t);
  for (const spec of ['./cmd', 'cmd/main.go', '.', 'controller.ts', 'example.com/wh/cmd', 'nowhere.go']) assert.deepEqual(programToRun(spec, dir), { spec }, spec);
  // Two programs calling Wrap: no guess; the command's own error asks for one.
  mkdirSync(join(dir, 'cmd/other'));
  writeFileSync(join(dir, 'cmd/other/main.go'), 'package main\n\nfunc main() { controllerlab.Wrap(mgr) }\n');
  assert.deepEqual(programToRun('internal/controller', dir), { spec: 'internal/controller' });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reconcileSource } from '../../../src/debug/goLaunch.ts';

// Where the debugger's reconcile frames point for a Go program: the Reconcile method, which in a
// kubebuilder project is not in the main package (cmd/) but in internal/controller/. The editor
// opens that file at that line when the debugger stops on a reconcile.

const GUESTBOOK = fileURLToPath(new URL('../../../examples/go-guestbook', import.meta.url));

test('a kubebuilder project: the reconcile frame is the Reconcile method in internal/controller, not cmd/main.go', () => {
  const controller = join(GUESTBOOK, 'internal/controller/guestbook_controller.go');
  const line = readFileSync(controller, 'utf8').split('\n').findIndex((l) => l.startsWith('func (r *GuestbookReconciler) Reconcile(')) + 1;
  assert.ok(line > 0);
  assert.deepEqual(reconcileSource('./cmd', GUESTBOOK), { path: controller, line });
  assert.deepEqual(reconcileSource('.', GUESTBOOK), { path: controller, line }, 'the module root names the same program');
});

test('a Reconcile in the main package wins; vendor and testdata are not searched; none at all points at main.go', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-reconcile-source-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'go.mod'), 'module example.com/op\n\ngo 1.26\n');
  const reconciler = 'package x\n\nfunc (r *R) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {\n\treturn ctrl.Result{}, nil\n}\n';
  for (const d of ['vendor/example.com/lib', 'testdata']) {
    mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, d, 'r.go'), reconciler);
  }
  writeFileSync(join(dir, 'main.go'), 'package main\n\nfunc main() {}\n');
  assert.deepEqual(reconcileSource('.', dir), { path: join(dir, 'main.go'), line: 1 });

  mkdirSync(join(dir, 'pkg/ctl'), { recursive: true });
  writeFileSync(join(dir, 'pkg/ctl/r.go'), reconciler);
  assert.deepEqual(reconcileSource('.', dir), { path: join(dir, 'pkg/ctl/r.go'), line: 3 });

  writeFileSync(join(dir, 'main.go'), `package main\n\nfunc main() {}\n\n${reconciler.replace('package x\n\n', '')}`);
  assert.deepEqual(reconcileSource('.', dir), { path: join(dir, 'main.go'), line: 5 });
});

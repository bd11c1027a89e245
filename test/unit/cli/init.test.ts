import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleCli } from './support/bundleCli.ts';
import { repoRoot, runCli } from './support/runCli.ts';
import { scaffoldCopy } from '../setup/goProject/fixtures.ts';

// `controller-lab init go`: its exit codes and one-line failures, and the shipped Go module found
// from a package's dist/ as from a checkout's src/.


test('usage errors and a folder that is not in a Go module exit 2 with one line', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cl-no-module-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'cmd'));
  const none = await runCli(['init']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^controller-lab init: say what to set up: init go \[DIR\]\n\nusage: controller-lab init go/);
  const other = await runCli(['init', 'rust']);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /^controller-lab init: unknown project kind "rust" \(only go\)\n/);
  const notModule = await runCli(['init', 'go', path.join(dir, 'cmd')]);
  assert.equal(notModule.code, 2);
  assert.equal(notModule.stderr, `controller-lab init: ${path.join(dir, 'cmd')} is not in a Go module (no go.mod there or above): run this in the folder that holds the project's go.mod\n`);
  const help = await runCli(['help', 'init']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--dry-run/);
});

test('from a folder inside the module it sets up the module and says where, and to cd there before the next commands', async (t) => {
  const dir = scaffoldCopy(t);
  const inside = path.join(dir, 'internal', 'controller');
  const r = await runCli(['init', 'go', inside, '--dry-run']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.equal(lines[1], `the Go module ${inside} is in: ${dir}`);
  assert.ok(lines.includes('cmd/main.go: mgr = controllerlab.Wrap(mgr) after ctrl.NewManager'), r.stdout);
  assert.ok(r.stdout.includes(`\nnext:\n  cd ${dir}\n  make test\n`), r.stdout);
});

test('without go on the PATH it exits 1 and says how to install it', async (t) => {
  const dir = scaffoldCopy(t);
  const r = await runCli(['init', 'go', dir], { env: { PATH: '/nonexistent' } });
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'controller-lab init: go is not on the PATH: install Go 1.25 or newer (https://go.dev/doc/install) and make sure `go` is on the PATH\n');
});

test('a project it cannot write to exits 1 with one line naming the path, not an internal error', async (t) => {
  const dir = scaffoldCopy(t);
  // A file where init puts its folder: as a read-only folder does, the first write fails.
  writeFileSync(path.join(dir, 'controller-lab'), 'not a folder\n');
  const r = await runCli(['init', 'go', dir]);
  assert.equal(r.stderr, `controller-lab init: cannot write ${path.join(dir, 'controller-lab', 'go', 'controllerlab')}: part of the path is a file, not a folder\n`);
  assert.equal(r.code, 1);
});

test('the packaged command (dist/ beside go/) finds the shipped module; --dry-run writes nothing', async (t) => {
  const pkg = mkdtempSync(path.join(tmpdir(), 'controller-lab-package-'));
  t.after(() => rmSync(pkg, { recursive: true, force: true }));
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'controller-lab', version: '7.7.7' }));
  symlinkSync(path.join(repoRoot, 'go'), path.join(pkg, 'go'));
  mkdirSync(path.join(pkg, 'dist'));
  const metafile = await bundleCli(path.join(pkg, 'dist', 'cli.cjs'));
  assert.ok(Object.keys(metafile.outputs).some((f) => f.endsWith('cli-init.cjs')), 'init has its own bundle');
  const dir = scaffoldCopy(t);
  const goMod = readFileSync(path.join(dir, 'go.mod'), 'utf8');
  const r = await runCli(['init', 'go', dir, '--dry-run'], { entry: path.join(pkg, 'dist', 'cli.cjs') });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], 'dry run: nothing was written; this is what would change');
  assert.ok(lines.includes("controller-lab/go: a copy of Controller Lab's Go module v7.7.7 (packages controllerlab, simtest)"), r.stdout);
  assert.ok(lines.includes('go.mod: require github.com/controller-lab/controller-lab/go v7.7.7 (replace => ./controller-lab/go)'), r.stdout);
  assert.ok(
    r.stdout.endsWith(
      '\nnext:\n  make test\n  controller-lab run ./cmd --sim --scenario controller-lab/scenario.yaml --until-idle\n  controller-lab check ./cmd --scenario controller-lab/scenario.yaml\n',
    ),
    r.stdout,
  );
  assert.equal(readFileSync(path.join(dir, 'go.mod'), 'utf8'), goMod);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setUpGoProject, setupLines } from '../../src/setup/index.ts';
import { systemGo } from '../../src/setup/goProject/goTool.ts';

// A kubebuilder project that is not on the newest versions (controller-runtime v0.23, k8s.io v0.35,
// go 1.25): `init go` with the real `go mod tidy` (it downloads modules, builds nothing) leaves its
// versions where the team put them. Controller Lab's module asks for no more than it was verified on.
// And a project that vendors its modules keeps a vendor/ that go accepts.

const FIXTURE = fileURLToPath(new URL('./fixtures/memcached-operator', import.meta.url));

const PINNED = ['sigs.k8s.io/controller-runtime@v0.23.3', 'k8s.io/api@v0.35.0', 'k8s.io/apimachinery@v0.35.0', 'k8s.io/client-go@v0.35.0', 'k8s.io/apiextensions-apiserver@v0.35.0'];

function versions(dir: string): Record<string, string> {
  const mod = JSON.parse(execFileSync('go', ['mod', 'edit', '-json'], { cwd: dir, encoding: 'utf8' })) as { Go: string; Require: { Path: string; Version: string }[] };
  const out: Record<string, string> = { go: mod.Go };
  for (const r of mod.Require) if (r.Path.startsWith('k8s.io/') || r.Path.startsWith('sigs.k8s.io/controller-runtime')) out[r.Path] = r.Version;
  return out;
}

test('init go in a project on controller-runtime v0.23 and k8s.io v0.35 (go 1.25) moves none of their versions', { timeout: 10 * 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-older-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(FIXTURE, dir, { recursive: true });
  // As a team on the older pair has it: the versions pinned, then the go directive they build with.
  execFileSync('go', ['get', ...PINNED], { cwd: dir, stdio: 'ignore' });
  execFileSync('go', ['mod', 'edit', '-go=1.25.0', '-toolchain=none'], { cwd: dir });
  execFileSync('go', ['mod', 'tidy'], { cwd: dir, stdio: 'ignore' });
  const before = versions(dir);
  assert.equal(before['sigs.k8s.io/controller-runtime'], 'v0.23.3');

  const r = await setUpGoProject({ dir, go: systemGo(), env: { CONTROLLER_LAB: 'npx controller-lab' } });
  const tidy = setupLines(r.changes).find((l) => l.startsWith('go.mod: go mod tidy'));
  assert.deepEqual(versions(dir), before, `go.mod after init go:\n${readFileSync(join(dir, 'go.mod'), 'utf8')}\n${tidy}`);
  assert.doesNotMatch(readFileSync(join(dir, 'go.mod'), 'utf8'), /^toolchain /m);
});

test('init go in a project on controller-runtime v0.22 (below what the module needs) names the versions it raised and why', { timeout: 10 * 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-older-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(FIXTURE, dir, { recursive: true });
  execFileSync('go', ['get', 'sigs.k8s.io/controller-runtime@v0.22.4', 'k8s.io/api@v0.34.1', 'k8s.io/apimachinery@v0.34.1', 'k8s.io/client-go@v0.34.1', 'k8s.io/apiextensions-apiserver@v0.34.1'], { cwd: dir, stdio: 'ignore' });
  execFileSync('go', ['mod', 'tidy'], { cwd: dir, stdio: 'ignore' });

  const r = await setUpGoProject({ dir, go: systemGo(), env: { CONTROLLER_LAB: 'npx controller-lab' } });
  const tidy = setupLines(r.changes).find((l) => l.startsWith('go.mod: go mod tidy')) ?? '';
  assert.match(tidy, /sigs\.k8s\.io\/controller-runtime v0\.22\.4 → v0\.23\.0/);
  assert.match(tidy, /k8s\.io\/client-go v0\.34\.1 → v0\.35\.0/);
  assert.match(tidy, /\(Controller Lab's Go module needs at least [^)]*k8s\.io\/client-go v0\.35\.0, sigs\.k8s\.io\/controller-runtime v0\.23\.0\)$/);
  assert.equal(versions(dir)['sigs.k8s.io/controller-runtime'], 'v0.23.0');
});

test('init go in a project that vendors its modules leaves vendor/ consistent: go list (and so go build) works', { timeout: 10 * 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-vendored-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(FIXTURE, dir, { recursive: true });
  execFileSync('go', ['mod', 'vendor'], { cwd: dir, stdio: 'ignore' });

  const r = await setUpGoProject({ dir, go: systemGo(), env: { CONTROLLER_LAB: 'npx controller-lab' } });
  assert.ok(setupLines(r.changes).some((l) => l.startsWith('vendor/modules.txt: go mod vendor')));
  const listed = spawnSync('go', ['list', './...'], { cwd: dir, encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(readFileSync(join(dir, 'vendor/modules.txt'), 'utf8'), /^# github\.com\/controller-lab\/controller-lab\/go v0\.1\.0 => \.\/controller-lab\/go$/m);
});

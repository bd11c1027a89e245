import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/runCli.ts';

// A controller whose process fails a moment after it went quiet, as a manager does when its
// webhook server's error reaches its exit late on a loaded machine: the check reports the
// unperturbed failure, not findings of perturbed runs that the failure ended early or late.

const SCENARIO = 'seed: 1\nobjects:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: app, namespace: default }\n';

// Its process dies 1 s after its last reconcile: after the reference run went quiet (0.4 s
// without activity) and its resync was done, whatever the machine's load.
const DIES_WHEN_IDLE = `import { defineController } from 'controller-lab';
let timer: ReturnType<typeof setTimeout> | undefined;
export default defineController({
  name: 'mortal',
  for: { apiVersion: 'v1', kind: 'ConfigMap' },
  reconcile() {
    clearTimeout(timer);
    timer = setTimeout(() => process.kill(process.pid, 'SIGKILL'), 1000);
  },
});
`;

test('a controller whose process dies 1 s after it went quiet: check reports the unperturbed failure, not findings', { timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-check-late-failure-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'scenario.yaml'), SCENARIO);
  writeFileSync(join(dir, 'controller.ts'), DIES_WHEN_IDLE);
  const r = await runCli(['check', join(dir, 'controller.ts'), '--scenario', join(dir, 'scenario.yaml')]);
  assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stderr, /the controller failed in an unperturbed run: /, `${r.stdout}\n${r.stderr}`);
  assert.doesNotMatch(r.stdout, /finding/i, r.stdout);
});

test('a controller whose module never finishes loading: check names that, not only that it did not sync', { timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-check-never-loads-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'scenario.yaml'), SCENARIO);
  writeFileSync(join(dir, 'controller.ts'), `import { defineController } from 'controller-lab';
await new Promise(() => {});
export default defineController({ name: 'stuck', for: { apiVersion: 'v1', kind: 'ConfigMap' }, reconcile() {} });
`);
  const r = await runCli(['check', join(dir, 'controller.ts'), '--scenario', join(dir, 'scenario.yaml')]);
  assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stderr, /the controller failed in an unperturbed run: the controller did not sync within 60 s \(the controller module has not finished loading; does its top-level code await something that never settles\?\)/, r.stderr);
});

// Its process dies a moment after every reconcile, and the controller host starts it again: an
// unperturbed run that can never go quiet, whose failure is known at the first crash.
const DIES_AFTER_EACH_RECONCILE = `import { defineController } from 'controller-lab';
export default defineController({
  name: 'fragile',
  for: { apiVersion: 'v1', kind: 'ConfigMap' },
  reconcile() {
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), 50);
  },
});
`;

test('a controller that crashes again after each restart: check reports the failure at once, not after the run budget', { timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-check-crash-loop-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'scenario.yaml'), SCENARIO);
  writeFileSync(join(dir, 'controller.ts'), DIES_AFTER_EACH_RECONCILE);
  const started = Date.now();
  const r = await runCli(['check', join(dir, 'controller.ts'), '--scenario', join(dir, 'scenario.yaml')]);
  const tookS = (Date.now() - started) / 1000;
  assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stderr, /the controller failed in an unperturbed run: /, `${r.stdout}\n${r.stderr}`);
  // A run's budget is 120 s: before, the crash loop kept the run going until it ran out.
  assert.ok(tookS < 60, `check took ${tookS.toFixed(0)} s to report a controller that crashed in its first seconds`);
});

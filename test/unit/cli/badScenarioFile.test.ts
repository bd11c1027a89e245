import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDir } from '../kube/support/loopbackApi.ts';
import { repoRoot, runCli, startCli } from './support/runCli.ts';

// A scenario that cannot be used ends `sim`, `run` and `check` with one line saying why, before a
// server listens: a sim that went on serving without its scenario would look as if it had loaded it.

const EMPTY_CONTROLLER = `export default { name: 'idle', for: { apiVersion: 'v1', kind: 'ConfigMap' }, async reconcile() {} };\n`;

test('a bad scenario: sim exits at once with the problem, serving nothing; run exits 2 as check does', async (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const scenario = path.join(dir, 'bad.yaml');
  writeFileSync(scenario, 'seed: 1\nobjects:\n  - apiVersion: v1\n    kind: Frobnicator\n    metadata: { name: x, namespace: default }\n');
  const sim = startCli(['sim', '--port', '0', '--scenario', scenario]);
  const stop = setTimeout(() => sim.child.kill('SIGKILL'), 20_000);
  const result = await sim.done;
  clearTimeout(stop);
  assert.equal(result.signal, null, `still running after 20 s; stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /bad\.yaml:4:11: objects\[0\]\.kind: unknown kind "Frobnicator"/);
  assert.doesNotMatch(result.stdout, /serving on/);
  const run = await runCli(['run', path.join(repoRoot, 'test/check/ts/replicator/correct.ts'), '--sim', '--scenario', scenario, '--until-idle']);
  assert.match(run.stderr, /^controller-lab run: .*bad\.yaml:4:11: objects\[0\]\.kind: unknown kind "Frobnicator"/);
  assert.equal(run.code, 2, 'bad input, as for check');
});

test('a scenario path that is a folder is one line naming it, for sim, run and check', async (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const folder = path.join(dir, 'scenarios');
  mkdirSync(folder);
  const controller = path.join(dir, 'idle.ts');
  writeFileSync(controller, EMPTY_CONTROLLER);
  const line = `scenario file is a folder, not a file: ${folder}`;
  const sim = await runCli(['sim', '--port', '0', '--scenario', folder]);
  assert.equal(sim.stderr, `controller-lab sim: ${line}\n`);
  assert.equal(sim.code, 1);
  const run = await runCli(['run', controller, '--sim', '--scenario', folder, '--until-idle']);
  assert.match(run.stderr, new RegExp(`^controller-lab run: ${line.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\n$`));
  assert.equal(run.code, 2, 'bad input, as for check');
  const check = await runCli(['check', controller, '--scenario', folder]);
  assert.equal(check.stderr, `controller-lab check: ${line}\n`);
  assert.equal(check.code, 2, 'bad input');
});

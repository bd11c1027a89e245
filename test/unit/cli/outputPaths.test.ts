import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDir } from '../kube/support/loopbackApi.ts';
import { repoRoot, runCli, startCli } from './support/runCli.ts';

// A file the user asked for (--trace, --json, --kubeconfig-out) that cannot be written is one line
// before the work starts: not a crash with Node's stack once the run is under way, not a finished
// check whose findings are then lost, not a sim that goes on serving without its kubeconfig.

const CONTROLLER = path.join(repoRoot, 'test/check/ts/replicator/correct.ts');
const SCENARIO = path.join(repoRoot, 'test/check/scenarios/replicator.yaml');

function project(t: { after(fn: () => void): void }): { dir: string; controller: string; scenario: string } {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  return { dir, controller: CONTROLLER, scenario: SCENARIO };
}

test('run --trace into a folder that does not exist: one line, exit 2, before the cluster starts', async (t) => {
  const { dir, controller, scenario } = project(t);
  const trace = path.join(dir, 'no-such-folder', 'trace.jsonl');
  const r = await runCli(['run', controller, '--sim', '--scenario', scenario, '--until-idle', '--trace', trace]);
  assert.equal(r.stderr, `controller-lab run: --trace ${trace}: cannot write it: the folder ${path.dirname(trace)} does not exist\n`);
  assert.equal(r.code, 2);
  assert.doesNotMatch(r.stdout, /simulated cluster at/);
});

test('check --json onto a folder: one line, exit 2, before any run', async (t) => {
  const { dir, controller, scenario } = project(t);
  const report = path.join(dir, 'reports');
  mkdirSync(report);
  const r = await runCli(['check', controller, '--scenario', scenario, '--json', report]);
  assert.equal(r.stderr, `controller-lab check: --json ${report}: cannot write it: it is a folder\n`);
  assert.equal(r.code, 2);
  assert.doesNotMatch(r.stdout, /reference run/);
});

test('sim --kubeconfig-out under a file: one line, exit 1, nothing left serving', async (t) => {
  const { dir } = project(t);
  const blocker = path.join(dir, 'not-a-folder');
  writeFileSync(blocker, '');
  const out = path.join(blocker, 'kubeconfig');
  const sim = startCli(['sim', '--port', '0', '--kubeconfig-out', out]);
  const stop = setTimeout(() => sim.child.kill('SIGKILL'), 20_000);
  const r = await sim.done;
  clearTimeout(stop);
  assert.equal(r.signal, null, `still serving after 20 s; stderr:\n${r.stderr}`);
  assert.equal(r.stderr, `controller-lab sim: --kubeconfig-out ${out}: cannot write it: ${blocker} is a file, not a folder\n`);
  assert.equal(r.code, 1);
});

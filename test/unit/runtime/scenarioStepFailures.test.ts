import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchSim } from '../../../src/runtime/simLauncher.ts';

// A scenario step that fails (its object is not there: a sample the kustomization does not list)
// is said when it fails, with its line, by `run --sim` and the debugger: before, the run went on
// in silence and the user waited for a reconcile that could never come.

test('a failed scenario step is told when it fails, with its file, line and the API\'s answer; the next steps still run', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-scenario-steps-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const scenario = join(dir, 'scenario.yaml');
  writeFileSync(
    scenario,
    [
      'steps:',
      '  - at: 10ms',
      '    patch: { target: { kind: Secret, namespace: default, name: creds }, patch: { stringData: { password: y } } }',
      '  - after: 10ms',
      '    create: { apiVersion: v1, kind: ConfigMap, metadata: { name: after, namespace: default } }',
      '',
    ].join('\n'),
  );
  const failed: string[] = [];
  const sim = await launchSim({ scenario, onScenarioStepFailed: (problem) => failed.push(problem) });
  t.after(() => sim.stop());
  sim.startScenario();
  await sim.scenarioDone;
  assert.deepEqual(failed, [`${scenario}:2:1: steps[0]: secrets "creds" not found`]);
  assert.ok(sim.cluster.get({ group: '', version: 'v1', resource: 'configmaps' }, 'default', 'after'));
});

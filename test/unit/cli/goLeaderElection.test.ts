import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEADER_ELECTION_WITHOUT_NAMESPACE_PROGRAM, writeGoProgram } from '../runtime/support/goPrograms.ts';
import { runCli } from './support/runCli.ts';

// A kubebuilder main checked with `-- --leader-elect` (the flag its Deployment passes): outside a
// cluster ctrl.NewManager fails for want of a namespace for the Lease, before controllerlab.Wrap.
// check says that, and what to do, rather than asking whether main.go calls Wrap (it does).

// Go keeps its build cache under HOME, which runCli points elsewhere by default.
const cli = (args: string[]) => runCli(args, { env: { HOME: process.env.HOME } });

const SCENARIO = 'seed: 1\nobjects:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: app, namespace: default }\n';

test('a manager with leader election and no namespace for its Lease: check says so and what to do, not to add Wrap', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(LEADER_ELECTION_WITHOUT_NAMESPACE_PROGRAM);
  const dir = mkdtempSync(join(tmpdir(), 'cl-go-leader-'));
  try {
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, SCENARIO);
    const check = await cli(['check', program.dir, '--scenario', scenario]);
    assert.equal(check.code, 1, check.stderr);
    assert.match(check.stderr, /the controller failed in an unperturbed run: .*its leader election \(--leader-elect\) has no namespace for its Lease.*LeaderElectionNamespace/);
    assert.doesNotMatch(check.stderr, /does its main\.go call controllerlab\.Wrap/);
  } finally {
    program.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputTail, goExitHint } from '../../../src/runtime/goMessages.ts';
import { WEBHOOK_WITHOUT_CERTS_PROGRAM, writeGoProgram } from '../runtime/support/goPrograms.ts';
import { runCli } from './support/runCli.ts';

// A kubebuilder project with webhooks, run or checked without ENABLE_WEBHOOKS=false: its manager
// stops at once for want of the webhook server's certificate. `run` shows the program's output,
// `check` shows none of it: both say what stopped it and what to do.

// Go keeps its build cache under HOME, which runCli points elsewhere by default.
const cli = (args: string[]) => runCli(args, { env: { HOME: process.env.HOME } });

const SCENARIO = 'seed: 1\nobjects:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: app, namespace: default }\n';

test('the tail of a program\'s output: the last lines, a line cut across chunks whole, blank lines left out', () => {
  const tail = new OutputTail(3);
  tail.add('one\ntw');
  tail.add('o\n\nthree\nfour\nfi');
  assert.deepEqual(tail.lines(), ['three', 'four', 'fi']);
  assert.match(goExitHint('ERROR\tsetup\tFailed to run manager\t{"error": "open /tmp/k8s-webhook-server/serving-certs/tls.crt: no such file or directory"}') ?? '', /ENABLE_WEBHOOKS=false/);
  assert.equal(goExitHint('ERROR\tsetup\tFailed to run manager\t{"error": "no such host"}'), undefined);
});

test('a manager whose webhook server has no certificate: run and check say so, and that ENABLE_WEBHOOKS=false runs it', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(WEBHOOK_WITHOUT_CERTS_PROGRAM);
  const dir = mkdtempSync(join(tmpdir(), 'cl-go-webhook-'));
  try {
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, SCENARIO);

    const run = await cli(['run', program.dir, '--sim', '--scenario', scenario, '--until-idle', '--timeout', '120']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /exited \(code 1\) outside any reconcile; its webhook server found no serving certificate .*ENABLE_WEBHOOKS=false/);

    const check = await cli(['check', program.dir, '--scenario', scenario]);
    assert.equal(check.code, 1, check.stderr);
    assert.match(check.stderr, /the controller failed in an unperturbed run: .*; its webhook server found no serving certificate .*ENABLE_WEBHOOKS=false/);
    // What the program said, which a check shows nowhere else.
    assert.match(check.stderr, /\nits last output:\n(?: {2}.*\n)*? {2}.*Failed to run manager.*serving-certs\/tls\.crt: no such file or directory/);
  } finally {
    program.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

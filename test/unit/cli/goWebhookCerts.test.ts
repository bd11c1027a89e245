import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputTail, goExitHint } from '../../../src/runtime/goMessages.ts';
import { WEBHOOK_WITHOUT_CERTS_PROGRAM, writeGoProgram } from '../runtime/support/goPrograms.ts';
import { runCli } from './support/runCli.ts';

// A manager with webhooks and no serving certificate (cert-manager makes it in a cluster), run or
// checked on a simulated cluster Controller Lab starts: controllerlab.Wrap serves its webhook server
// on a loopback port of its own with a certificate made for the run, so it runs without
// ENABLE_WEBHOOKS=false. What keeps the webhooks from being served is said in one line.

// Go keeps its build cache under HOME, which runCli points elsewhere by default.
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env: { HOME: process.env.HOME, ...env } });

const SCENARIO = 'seed: 1\nobjects:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: app, namespace: default }\n';

test('the tail of a program\'s output: the last lines, a line cut across chunks whole, blank lines left out', () => {
  const tail = new OutputTail(3);
  tail.add('one\ntw');
  tail.add('o\n\nthree\nfour\nfi');
  assert.deepEqual(tail.lines(), ['three', 'four', 'fi']);
});

test('why a Go program stopped at once, read off its output', () => {
  assert.match(goExitHint('ERROR\tsetup\tFailed to run manager\t{"error": "open /tmp/k8s-webhook-server/serving-certs/tls.crt: no such file or directory"}') ?? '', /ENABLE_WEBHOOKS=false/);
  assert.equal(goExitHint('ERROR\tsetup\tFailed to run manager\t{"error": "no such host"}'), undefined);
  assert.equal(
    goExitHint('ERROR\tsetup\tFailed to run manager\t{"error": "listen tcp 127.0.0.1:38705: bind: address already in use"}'),
    'one of its servers could not listen on 127.0.0.1:38705: another program is using that port',
  );
  assert.equal(
    goExitHint('ERROR\tsetup\tFailed to run manager\t{"error": "controller-lab: reading the webhook configurations: /p/manifests.yaml: field \\"x\\" unknown"}'),
    'its webhooks could not be served: reading the webhook configurations: /p/manifests.yaml: field "x" unknown',
  );
});

test('a manager with webhooks and no certificate: run --sim and check serve its webhook server on loopback; unreadable webhook configurations are said in one line', { timeout: 600_000 }, async () => {
  const program = writeGoProgram(WEBHOOK_WITHOUT_CERTS_PROGRAM);
  const dir = mkdtempSync(join(tmpdir(), 'cl-go-webhook-'));
  try {
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, SCENARIO);

    const run = await cli(['run', program.dir, '--sim', '--scenario', scenario, '--until-idle', '--timeout', '120']);
    assert.equal(run.code, 0, run.stderr);
    // The program's module has no config/webhook: served, with nothing for the sim to call.
    assert.match(run.stderr, /^controller-lab: webhook server on https:\/\/127\.0\.0\.1:\d+, but \S+\/config\/webhook has no webhook configurations/m);
    assert.match(run.stdout, /^#\d+ ConfigMap default\/app \(ADDED rv \d+\) → ok/m);

    const check = await cli(['check', program.dir, '--scenario', scenario]);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /^check: 0 finding\(s\) in \d+ runs/m, check.stdout);

    // Webhook configurations it cannot read: the run ends at once and says why, in one line.
    const broken = join(dir, 'manifests.yaml');
    writeFileSync(broken, 'apiVersion: admissionregistration.k8s.io/v1beta1\nkind: ValidatingWebhookConfiguration\nmetadata: { name: old }\n');
    const refused = await cli(['run', program.dir, '--sim', '--scenario', scenario, '--until-idle', '--timeout', '120'], { CONTROLLER_LAB_WEBHOOK_CONFIGS: broken });
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /exited \(code 1\) outside any reconcile; its webhooks could not be served: reading the webhook configurations: \S+manifests\.yaml: ValidatingWebhookConfiguration: only admissionregistration\.k8s\.io\/v1 is read, not admissionregistration\.k8s\.io\/v1beta1$/m);
  } finally {
    program.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

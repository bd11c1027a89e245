import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// `controller-lab run --why`: after the run, for each object asked about, whether the controller
// reconciled each of its changes and why not, one step per line, printed even with --quiet.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'src/cli/main.ts');

test('run --why answers for each change of each object asked about, even with --quiet', () => {
  const r = spawnSync(
    process.execPath,
    [CLI, 'run', 'test/fixtures/whyNot/controller.ts', '--sim', '--scenario', 'test/fixtures/whyNot/scenario.yaml', '--until-idle', '--timeout', '60', '--quiet', '--why', 'Deployment default/api', '--why', 'Secret default/token'],
    { cwd: ROOT, encoding: 'utf8', timeout: 90_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  const api = r.stdout.slice(r.stdout.indexOf('Why (not)? Deployment default/api'), r.stdout.indexOf('Why (not)? Secret'));
  // Created: reconciled. Labelled paused: a label is no spec change. Scaled while paused: NotPaused.
  assert.match(api, /^ADDED rv \d+:\n {2}app-config: reconciled \(#\d+\)\n {4}Watched\? yes, Deployment through For\n {4}Received\? yes, ADDED rv \d+ at [\d:.]+\n {4}Filtered\? no \(For\), it passed the predicates\n {4}Mapped to\? Deployment default\/api \(For\)\n {4}Queued\? yes, neither deduplicated nor rate-limited\n {4}Reconciled\? yes, reconcile #\d+ of default\/api at [\d:.]+$/m, api);
  assert.match(api, /^MODIFIED rv \d+:\n {2}app-config: not reconciled\n {4}Watched\? yes, Deployment through For\n {4}Received\? yes, MODIFIED rv \d+ at [\d:.]+\n {4}Filtered\? yes \(For\), by predicate GenerationChangedPredicate: it returned false, so nothing was enqueued$/m, api);
  assert.match(api, /^ {4}Filtered\? yes \(For\), by predicate NotPaused: it returned false, so nothing was enqueued$/m, api);
  assert.match(r.stdout, /^Why \(not\)\? Secret default\/token\n {2}app-config: not reconciled\n {4}Watched\? no, app-config does not watch Secret at all \(For Deployment; Owns ConfigMap; Watches ConfigMap\)$/m);
  // --quiet: no reconcile lines.
  assert.doesNotMatch(r.stdout, /^#\d+ /m);
});

test('run --why with a malformed object is a usage error', () => {
  const r = spawnSync(process.execPath, [CLI, 'run', 'test/fixtures/whyNot/controller.ts', '--sim', '--why', 'default/api'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^controller-lab run: --why: expected `Kind namespace\/name`/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkController, checkProgress, checkVerdict, describePlan, describeReport, replayCommand, reportJson, type Finding, type Plan } from '../../../src/check/index.ts';
import { namerForPlan } from '../../../src/check/run/controllerWrites.ts';

// What check says to a person, the names a replay gives objects, and a cancelled check.

test('the summary says why planned runs were left out', () => {
  const report = { findings: [], runs: 4, planned: 6, skipped: 4, durationMs: 9000 };
  assert.equal(describeReport(report), 'check: 0 finding(s) in 4 runs, 9.0 s; 4 planned perturbation(s) left out by the budget');
  assert.equal(describeReport({ ...report, cancelled: true }), 'check: 0 finding(s) in 4 runs, 9.0 s; 4 planned perturbation(s) left out when it was cancelled');
});

// A fresh kubebuilder controller (its Reconcile a TODO) writes nothing: its check plans no run.
test('a check with nothing to perturb says so, and never that it found no bug', () => {
  const report = { findings: [], runs: 2, planned: 0, skipped: 0, durationMs: 13_000 };
  assert.equal(describeReport(report), 'check: 0 finding(s) in 2 runs, 13.0 s; nothing was perturbed, so nothing was checked');
  const verdict = checkVerdict('cmd', report);
  assert.equal(verdict.warning, true);
  assert.match(verdict.text, /^Controller Lab had nothing to check in cmd: in its unperturbed runs the controller wrote nothing .* give the scenario objects or steps that make it act\.$/);
  assert.doesNotMatch(verdict.text, /no bug/);
  assert.deepEqual(checkVerdict('cmd', { ...report, planned: 5, runs: 7 }), { warning: false, text: 'Controller Lab found no bug in cmd (7 runs).' });
});

test('a check whose budget left out every perturbed run says nothing was checked, and never that it found no bug', () => {
  const report = { findings: [], runs: 2, planned: 6000, skipped: 6000, durationMs: 26_800 };
  assert.equal(describeReport(report), 'check: 0 finding(s) in 2 runs, 26.8 s; 6000 planned perturbation(s) left out by the budget; no perturbed run fitted, so nothing was checked: give --budget more time');
  const verdict = checkVerdict('flood.ts', report);
  assert.equal(verdict.warning, true);
  assert.doesNotMatch(verdict.text, /no bug/);
  assert.match(verdict.text, /^Controller Lab checked nothing in flood\.ts: none of its 6000 perturbed runs fitted in the time budget/);
});

test('a replay command quotes what the shell would split', () => {
  const line = replayCommand({ program: '/w/my controller.ts', scenario: 's.yaml', workloads: true, programArgs: [] }, { kind: 'resync-when-quiet' });
  assert.equal(line, `controller-lab check '/w/my controller.ts' --scenario s.yaml --workloads --plan '{"kind":"resync-when-quiet"}'`);
});

test('a replay command sets the variables the program was checked with first, as a shell takes them', () => {
  const given = { program: './cmd', scenario: 'controller-lab/scenario.yaml', workloads: false, programArgs: [], env: { IMAGE: 'busybox:1.36.1', ARGS: '-m 64', ENABLE_WEBHOOKS: 'false' } };
  assert.equal(replayCommand(given, { kind: 'resync-when-quiet' }), `IMAGE=busybox:1.36.1 ARGS='-m 64' ENABLE_WEBHOOKS=false controller-lab check ./cmd --scenario controller-lab/scenario.yaml --plan '{"kind":"resync-when-quiet"}'`);
});

test('a replay command names the secrets the program was checked with instead of printing them', () => {
  const env = { API_TOKEN: 's3cr3t-value', DB_PASSWORD: 'hunter2', DATABASE_URL: 'postgres://app:hunter3@db:5432/app', REGION: 'eu-west-1' };
  const line = replayCommand({ program: './cmd', scenario: 's.yaml', workloads: false, programArgs: [], env }, { kind: 'resync-when-quiet' });
  assert.equal(line, `API_TOKEN="\${API_TOKEN:?}" DB_PASSWORD="\${DB_PASSWORD:?}" DATABASE_URL="\${DATABASE_URL:?}" REGION=eu-west-1 controller-lab check ./cmd --scenario s.yaml --plan '{"kind":"resync-when-quiet"}'`);
  for (const secret of ['s3cr3t', 'hunter2', 'hunter3']) assert.ok(!line.includes(secret), `${secret} is not printed`);
  const signing = replayCommand({ program: './cmd', scenario: 's.yaml', workloads: false, programArgs: [], env: { SIGNING_KEY: 'k', KEYCLOAK_URL: 'https://kc', MONKEY: 'x' } }, { kind: 'resync-when-quiet' });
  assert.match(signing, /^SIGNING_KEY="\$\{SIGNING_KEY:\?\}" KEYCLOAK_URL=https:\/\/kc MONKEY=x /);
});

test("a replay names objects by its plan's point: a made-up name by the prefix the plan gives", () => {
  const namer = namerForPlan({ kind: 'crash-after-write', write: { verb: 'create', kind: 'ConfigMap', namespace: 'default', name: 'web-*', occurrence: 1 } });
  const cm = (name: string, extra: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', ...extra } });
  assert.equal(namer(cm('web-x7k2p')), 'web-*');
  assert.equal(namer(cm('web-x7k2p', { generateName: 'web-x' })), 'web-x*');
  assert.equal(namer(cm('api-1')), 'api-1');
  assert.equal(namer({ ...cm('web-1'), metadata: { name: 'web-1', namespace: 'other' } }), 'web-1');
});

test('a check cancelled before its reference runs has nothing to report', async () => {
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(
    checkController({ program: 'nowhere.ts', scenario: 'nowhere.yaml', workloads: false, budgetMs: 1000, replayCommand: () => '', signal: controller.signal }),
    { name: 'AbortError' },
  );
});

test('a finding a later, simpler run explains is named at the end as the finding the report gives it', () => {
  const write = { verb: 'create' as const, kind: 'ConfigMap', namespace: 'default', name: 'web-*', occurrence: 1 };
  const at = (plan: Plan, cls: Finding['class']): Finding => ({ class: cls, summary: '', plan, perturbation: describePlan(plan), diff: '+ x', objects: [], reconciles: [], replay: '' });
  const stale = at({ kind: 'stale-after-write', write, lagMs: 1500 }, 'stale-state');
  const crash = at({ kind: 'crash-after-write', write }, 'intermediate-state');
  const reported = { ...crash, alsoReproducedBy: [{ class: stale.class, perturbation: stale.perturbation, plan: stale.plan, replay: '' }] };
  const progress = checkProgress();
  progress({ type: 'finding', finding: stale });
  assert.match(progress({ type: 'run', done: 1, planned: 2, plan: stale.plan, finding: stale, missed: false, durationMs: 1000 }) ?? '', /FINDING 1 \(stale-state\)/);
  progress({ type: 'finding', finding: crash });
  assert.equal(
    progress({ type: 'attributed', announced: [reported, reported], findings: [reported] }),
    [
      'the same bug reproduced by several perturbations is one finding:',
      '  FINDING 1 (stale-state) above is FINDING 1 (intermediate-state) below (killed right after `create ConfigMap default/web-*`, then restarted reproduces it: the simplest perturbation that does)',
      '  FINDING 2 (intermediate-state) above is FINDING 1 (intermediate-state) below',
    ].join('\n'),
  );
  const unmoved = checkProgress();
  unmoved({ type: 'finding', finding: stale });
  assert.equal(unmoved({ type: 'attributed', announced: [stale], findings: [stale] }), undefined);
});

test('the JSON report lists the other runs that reproduced a finding, and only when there are some', () => {
  const plan: Plan = { kind: 'crash-after-write', write: { verb: 'create', kind: 'ConfigMap', namespace: 'default', name: 'web-*', occurrence: 1 } };
  const f: Finding = { class: 'intermediate-state', summary: 's', plan, perturbation: 'p', diff: 'd', objects: [], reconciles: [], replay: 'r' };
  const also = { class: 'stale-state' as const, perturbation: 'q', plan: { kind: 'stale-after-write' as const, write: plan.write, lagMs: 1500 }, replay: 'r2' };
  const report = JSON.parse(reportJson({ findings: [f, { ...f, alsoReproducedBy: [also], madeByOneStart: true }], runs: 3, planned: 2, skipped: 0, durationMs: 1 })) as { findings: Record<string, unknown>[] };
  assert.equal('alsoReproducedBy' in report.findings[0]!, false);
  assert.deepEqual(report.findings[1]!['alsoReproducedBy'], [also]);
  assert.equal('madeByOneStart' in report.findings[1]!, false);
});

test('a reference run that went quiet with keys still failing says which, and why', () => {
  const line = checkProgress();
  const reference = { type: 'reference' as const, run: 1, quiet: true, durationMs: 6900, reconciles: 25, writes: 0 };
  assert.equal(line({ ...reference, failing: [] }), 'reference run 1: quiet after 6.9 s, 25 reconciles, 0 writes');
  const failing = ['deploy', 'launch', 'a', 'b'].map((name) => ({ request: `Gate default/${name}`, error: 'the cache has no ConfigMap' }));
  assert.equal(
    line({ ...reference, failing }),
    [
      'reference run 1: quiet after 6.9 s, 25 reconciles, 0 writes',
      'warning: 4 key(s) still failing when the run went quiet (their last reconcile returned an error; the end state compared is what they left):',
      '  Gate default/deploy: the cache has no ConfigMap',
      '  Gate default/launch: the cache has no ConfigMap',
      '  Gate default/a: the cache has no ConfigMap',
      '  … and 1 more',
    ].join('\n'),
  );
});

test('a check with nothing to perturb says why and what would give it something, not only "0 perturbed run(s)"', () => {
  const progress = checkProgress();
  assert.equal(progress({ type: 'planned', plans: 3, varying: 0 }), '3 perturbed run(s) planned');
  assert.equal(
    progress({ type: 'planned', plans: 3, varying: 5, varyingExamples: ['ConfigMap default/x .data.stamp', 'Secret default/tls .data.key', 'ConfigMap default/y (in some runs only)'] }),
    '3 perturbed run(s) planned (5 field(s) or object(s) vary between unperturbed runs and are not compared: ConfigMap default/x .data.stamp, Secret default/tls .data.key, ConfigMap default/y (in some runs only), 2 more)',
  );
  assert.match(progress({ type: 'planned', plans: 0, varying: 2 }) ?? '', /^0 perturbed run\(s\) planned \(2 field.*\): in its unperturbed runs the controller wrote nothing and nothing it watches changed, so there is nothing to perturb: give the scenario objects or steps that make it act/);
});

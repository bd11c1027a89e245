import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../../src/check/index.ts';
import { FindingsModel, type FindingsNode } from '../../../src/vscode/checkFindings/findingsModel.ts';
import { replayLaunchConfiguration } from '../../../src/vscode/checkFindings/checkTarget.ts';

// The Check Findings view's rows: a finding per row with its class and summary, and under it the
// replay action, what was done, the end state's differences nested as the report indents them,
// the reconciles where the run went its own way, and the replay command; the view's message says
// where the check stands.

const CRASH: Finding = {
  class: 'intermediate-state',
  summary: 'killed right after `create ConfigMap default/web-*`, then restarted: the end state differs from every reference run — 1 unexpected object(s), 1 object(s) with other values (ConfigMap default/web .metadata.annotations["example.com/child"])',
  perturbation: 'killed right after `create ConfigMap default/web-*`, then restarted',
  plan: { kind: 'crash-after-write', write: { verb: 'create', kind: 'ConfigMap', namespace: 'default', name: 'web-*', occurrence: 1 } },
  diff: '~ ConfigMap default/web\n    .metadata.annotations["example.com/child"]\n      - "web-9kvzp"\n      + "web-njgrc"\n+ ConfigMap default/web-* of ConfigMap default/web {role=child} #2 (not expected)',
  objects: [
    { id: 'ConfigMap default/web', change: 'changed', fields: [{ path: '.metadata.annotations["example.com/child"]', expected: 'web-9kvzp', got: 'web-njgrc' }] },
    { id: 'ConfigMap default/web-* of ConfigMap default/web {role=child} #2', change: 'extra' },
  ],
  reconciles: [
    {
      seq: 2,
      incarnation: 2,
      controller: 'child-maker',
      key: 'default/web',
      trigger: 'ADDED rv 144',
      read: { kind: 'ConfigMap', key: 'default/web', resourceVersion: '144' },
      cacheResourceVersion: '145',
      writes: ['create ConfigMap default/web-njgrc → rv 146', 'update ConfigMap default/web → rv 147'],
    },
  ],
  replay: `controller-lab check /w/controller.ts --scenario /w/scenario.yaml --plan '{"kind":"crash-after-write"}'`,
};

const TARGET = { program: '/w/controller.ts', scenario: '/w/scenario.yaml', cwd: '/w' };

function shape(nodes: readonly FindingsNode[]): unknown[] {
  return nodes.map((n) => (n.children.length ? { [n.item.label]: shape(n.children) } : n.item.label));
}

test('a finding is a row with its class icon and summary; its children say what was done, what differed, where, and how to replay it', () => {
  const model = new FindingsModel();
  model.start(TARGET);
  model.add(CRASH);
  const [finding] = model.roots();
  assert.ok(finding);
  assert.equal(finding.item.label, `1. ${CRASH.summary}`);
  assert.equal(finding.item.description, 'intermediate-state');
  assert.deepEqual(finding.item.icon, { id: 'debug-restart', color: 'problemsErrorIcon.foreground' });
  assert.equal(finding.item.contextValue, 'finding');
  assert.equal(finding.item.collapsible, 'collapsed');
  assert.deepEqual(shape(finding.children), [
    'Replay in Debugger',
    CRASH.perturbation,
    {
      'End state against the reference runs': [
        { '~ ConfigMap default/web': [{ '.metadata.annotations["example.com/child"]': ['- "web-9kvzp"', '+ "web-njgrc"'] }] },
        '+ ConfigMap default/web-* of ConfigMap default/web {role=child} #2 (not expected)',
      ],
    },
    { 'Where the run went its own way': [{ '#2 default/web': ['create ConfigMap default/web-njgrc → rv 146', 'update ConfigMap default/web → rv 147'] }] },
    'Replay command',
  ]);
  const [replay, , diff, reconciles, command] = finding.children;
  assert.equal(replay?.item.command?.command, 'controllerLab.replayFinding');
  assert.deepEqual(diff?.children.map((c) => c.item.icon?.id), ['diff-modified', 'diff-added']);
  assert.equal(reconciles?.children[0]?.item.description, 'ADDED rv 144; read rv 144, cache rv 145 · after restart 1');
  assert.equal(command?.item.description, CRASH.replay);
  assert.equal(command?.item.contextValue, 'replayCommand');
  assert.equal(command?.item.command?.command, 'controllerLab.copyReplayCommand');
  // Every row knows its finding and what was checked: Replay in Debugger needs both.
  for (const n of [finding, ...finding.children]) assert.equal(n.ref.finding, CRASH);
  assert.equal(new Set(allIds(model.roots())).size, allIds(model.roots()).length, 'ids are unique');
});

test('a reconcile the kill cut short says so', () => {
  const model = new FindingsModel();
  const killed = { ...CRASH.reconciles[0]!, incarnation: 1, writes: [], killed: true as const };
  model.start(TARGET);
  model.add({ ...CRASH, reconciles: [killed] });
  const reconciles = model.roots()[0]?.children.find((c) => c.item.label === 'Where the run went its own way');
  assert.equal(reconciles?.children[0]?.item.description, 'ADDED rv 144; read rv 144, cache rv 145 · killed here, before it finished');
});

test("the view's message follows the check; a new check starts with new rows", () => {
  const model = new FindingsModel();
  const changes: string[] = [];
  model.onDidChange(() => changes.push(model.message() ?? ''));
  assert.equal(model.message(), undefined);
  model.start(TARGET);
  assert.equal(model.running, true);
  assert.equal(model.message(), 'Checking controller.ts with scenario.yaml: reference runs, 0 finding(s) so far');
  model.progress(3, 6);
  model.add(CRASH);
  assert.equal(model.message(), 'Checking controller.ts with scenario.yaml: run 3 of 6, 1 finding(s) so far');
  model.finish({ findings: [CRASH], runs: 8, planned: 6, skipped: 0, durationMs: 18_200 });
  assert.equal(model.running, false);
  assert.equal(model.message(), 'controller.ts with scenario.yaml: 1 finding(s) (intermediate-state 1) in 8 runs, 18.2 s');
  const firstIds = allIds(model.roots());
  model.start(TARGET);
  assert.deepEqual(model.roots(), []);
  model.add(CRASH);
  assert.ok(allIds(model.roots()).every((id) => !firstIds.includes(id)), 'nothing of the last check stays expanded');
  model.fail('the controller failed in an unperturbed run: load: boom');
  assert.equal(model.message(), 'controller.ts with scenario.yaml: the check failed — the controller failed in an unperturbed run: load: boom');
  assert.equal(changes.length, 7);
});

test('Replay in Debugger launches the reconcile debugger on the finding\'s plan', () => {
  assert.deepEqual(replayLaunchConfiguration(TARGET, CRASH.plan, 'Replay finding 1'), {
    type: 'controller-lab',
    request: 'launch',
    name: 'Replay finding 1',
    controller: '/w/controller.ts',
    scenario: '/w/scenario.yaml',
    cluster: 'sim',
    cwd: '/w',
    checkPlan: CRASH.plan,
  });
  const go = replayLaunchConfiguration({ program: '/w/cmd', scenario: '/w/s.yaml', workloads: true, as: 'system:serviceaccount:a:b', args: ['--x'] }, { kind: 'resync-when-quiet' }, 'r');
  assert.equal(go.program, '/w/cmd');
  assert.equal(go.controller, undefined);
  assert.equal(go.runAs, 'system:serviceaccount:a:b');
  assert.deepEqual(go.args, ['--x']);
  assert.equal(go.workloads, true);
});

function allIds(nodes: readonly FindingsNode[]): string[] {
  return nodes.flatMap((n) => [n.id, ...allIds(n.children)]);
}

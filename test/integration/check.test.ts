import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ControllerLabApi } from '../../src/extension.ts';
import type { FindingsNode } from '../../src/vscode/checkFindings/findingsModel.ts';
import { waitFor } from './waitFor.ts';

// Check Controller inside a real extension host, on a TypeScript controller with a planted bug
// (test/fixtures/plantedBug: the child ConfigMap's name is recorded on its parent only after the
// child is created): the check finds it, the Check Findings view shows it, Replay in Debugger
// starts a session that stops where the run diverged, and a launch configuration with
// "check": true runs a check instead of a session.

interface DapMessage {
  type: string;
  event?: string;
  body?: Record<string, unknown>;
}

describe('Controller Lab: Check Controller', function () {
  this.timeout(240_000);
  let api: ControllerLabApi;
  let fixture = '';
  const messages: DapMessage[] = [];
  let tracker: vscode.Disposable | undefined;
  const view = () => api.checkFindings;
  const label = (n: FindingsNode) => String(view().getTreeItem(n).label ?? '');
  const description = (n: FindingsNode) => String(view().getTreeItem(n).description ?? '');

  before(async () => {
    const ext = vscode.extensions.getExtension<ControllerLabApi>('controller-lab.controller-lab');
    assert.ok(ext, 'extension is installed');
    api = await ext.activate();
    fixture = path.join(ext.extensionPath, 'test/fixtures/plantedBug');
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('controller-lab', {
      createDebugAdapterTracker: () => ({ onDidSendMessage: (m: DapMessage) => messages.push(m) }),
    });
  });

  after(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
    tracker?.dispose();
  });

  it('finds the planted bug and shows it in the Check Findings view', async () => {
    const report = (await vscode.commands.executeCommand('controllerLab.checkController', {
      program: path.join(fixture, 'controller.ts'),
      scenario: path.join(fixture, 'scenario.yaml'),
    })) as { findings: { class: string }[]; runs: number } | undefined;
    assert.ok(report, 'the check ran');
    const findings = view().getChildren();
    assert.equal(findings.length, report.findings.length);
    const crash = findings.find((n) => label(n).includes('killed right after `create ConfigMap default/web-*`, then restarted'));
    assert.ok(crash, `findings: ${findings.map(label).join(' | ')}`);
    assert.equal(description(crash), 'intermediate-state');
    const item = view().getTreeItem(crash);
    assert.equal(item.contextValue, 'finding');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'debug-restart');
    const children = view().getChildren(crash).map(label);
    assert.deepEqual(children, ['Replay in Debugger', 'killed right after `create ConfigMap default/web-*`, then restarted', 'End state against the reference runs', 'Where the run went its own way', 'Replay command', 'Also reproduced by']);
    // A stale cache after the same create makes the second child too: the same bug, listed under the crash that explains it more simply.
    const also = view().getChildren(view().getChildren(crash).find((n) => n.kind === 'alsoReproduced'));
    assert.ok(also.length > 0 && also.every((n) => description(n) === 'stale-state'), `also reproduced by: ${also.map((n) => `${label(n)} (${description(n)})`).join(' | ')}`);
    const diff = view().getChildren(crash).find((n) => n.kind === 'endState');
    assert.ok(view().getChildren(diff).some((n) => /^\+ ConfigMap default\/web-[a-z0-9]{5} \(not expected\)$/.test(label(n))), `a second child, not expected: ${view().getChildren(diff).map(label).join(' | ')}`);

    // The replay command copies.
    const copied = await vscode.commands.executeCommand<string>('controllerLab.copyReplayCommand', crash);
    assert.match(copied ?? '', /^controller-lab check .*controller\.ts --scenario .*scenario\.yaml --plan '\{"kind":"crash-after-write"/);
    assert.equal(await vscode.env.clipboard.readText(), copied);
  });

  it('replays a finding in the debugger, stopped at the first reconcile after its perturbation', async () => {
    const crash = view().getChildren().find((n) => n.ref.finding.plan.kind === 'crash-after-write');
    assert.ok(crash);
    const before = messages.length;
    assert.equal(await vscode.commands.executeCommand('controllerLab.replayFinding', crash), true);
    const stop = await waitFor('the replay\'s stop', () => messages.slice(before).find((m) => m.type === 'event' && m.event === 'stopped'), 60_000);
    assert.equal(stop.body?.['reason'], 'perturbation');
    assert.equal(stop.body?.['description'], 'Replaying a check finding: killed right after `create ConfigMap default/web-*`, then restarted');
    const session = vscode.debug.activeDebugSession;
    assert.ok(session && session.configuration['checkPlan']);
    const trace = (await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { name: string }[] };
    assert.match(trace.stackFrames[0]?.name ?? '', /^reconcile ConfigMap default\/web #\d+ · /);
    // The timeline's feed has the perturbation's marker, saying what was done.
    const marker = api.services.lab.timeline.events.all().find((e) => e.type === 'PERTURBATION');
    assert.equal(marker?.note, 'killed right after `create ConfigMap default/web-*`, then restarted');
    await vscode.debug.stopDebugging(session);
    await waitFor('the session to end', () => (vscode.debug.activeDebugSession ? undefined : true));
  });

  it('a launch configuration with "check": true runs a check instead of a debug session', async () => {
    const before = messages.length;
    const started = await vscode.debug.startDebugging(undefined, {
      type: 'controller-lab',
      request: 'launch',
      name: 'Check the planted bug (no such scenario)',
      controller: path.join(fixture, 'controller.ts'),
      scenario: path.join(fixture, 'no-such-scenario.yaml'),
      check: true,
    });
    assert.equal(started, false, 'no debug session starts');
    assert.equal(vscode.debug.activeDebugSession, undefined);
    // The check ran (and said why it could not start): the view's rows are this check's, none yet.
    await waitFor('the check to fail on the missing scenario', () => view().getChildren().length === 0 && !view().model.running);
    assert.match(view().model.message() ?? '', /the check failed — .*no-such-scenario\.yaml/);
    assert.equal(messages.length, before, 'no adapter was started');
  });
});

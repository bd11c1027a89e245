import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './waitFor.ts';

// The reconcile debugger inside a real extension host: start a `controller-lab` session on the
// replicaset example against a simulated cluster, wait for the stop (seen by a DebugAdapterTracker,
// as VS Code's UI sees it), read the reconcile frame and its scopes, step, and stop the session.

interface DapMessage {
  type: string;
  event?: string;
  body?: Record<string, unknown>;
}


describe('Controller Lab reconcile debugger', function () {
  this.timeout(90_000);
  const messages: DapMessage[] = [];
  let tracker: vscode.Disposable | undefined;
  let examples = '';

  before(async () => {
    const ext = vscode.extensions.getExtension('controller-lab.controller-lab');
    assert.ok(ext, 'extension is installed');
    await ext.activate();
    examples = path.join(ext.extensionPath, 'examples');
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('controller-lab', {
      createDebugAdapterTracker: () => ({ onDidSendMessage: (m: DapMessage) => messages.push(m) }),
    });
  });

  after(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
    tracker?.dispose();
  });

  const stops = () => messages.filter((m) => m.type === 'event' && m.event === 'stopped');

  it('stops on entry at the first reconcile and shows its frame and scopes', async () => {
    const started = await vscode.debug.startDebugging(undefined, {
      type: 'controller-lab',
      request: 'launch',
      name: 'ReplicaSet controller (integration)',
      controller: path.join(examples, 'replicaset-controller/controller.ts'),
      scenario: path.join(examples, 'replicaset-controller/scenario.yaml'),
      cluster: 'sim',
      stopOnEntry: true,
    });
    assert.equal(started, true);
    const stop = await waitFor('a stopped event', () => stops()[0]);
    assert.equal(stop.body?.['reason'], 'entry');
    const session = vscode.debug.activeDebugSession;
    assert.ok(session && session.type === 'controller-lab');

    const trace = (await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { id: number; name: string }[] };
    const frame = trace.stackFrames[0];
    assert.match(frame?.name ?? '', /^reconcile ReplicaSet default\/(web|api) #1 · ADDED rv \d+$/);
    const scopes = (await session.customRequest('scopes', { frameId: frame?.id })) as { scopes: { name: string; variablesReference: number }[] };
    assert.deepEqual(scopes.scopes.map((s) => s.name), ['Request', 'Object', 'Trigger', 'Queue', 'Writes', 'Result']);
    const object = scopes.scopes.find((s) => s.name === 'Object');
    const vars = (await session.customRequest('variables', { variablesReference: object?.variablesReference })) as { variables: { name: string; value: string }[] };
    assert.equal(vars.variables.find((v) => v.name === 'kind')?.value, '"ReplicaSet"');

    // next: the first reconcile runs, the debugger stops at the second
    await session.customRequest('next', { threadId: 1 });
    const second = await waitFor('the next stop', () => stops()[1]);
    assert.equal(second.body?.['reason'], 'step');
    const after = (await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { name: string }[] };
    assert.match(after.stackFrames[0]?.name ?? '', /#2 · /);
  });

  it('"cluster": "view" debugs against the view\'s simulated cluster, with the scenario loaded into it', async () => {
    const first = vscode.debug.activeDebugSession;
    if (first) await vscode.debug.stopDebugging(first);
    await waitFor('the first session to end', () => (vscode.debug.activeDebugSession ? undefined : true));
    const before = stops().length;
    const started = await vscode.debug.startDebugging(undefined, {
      type: 'controller-lab',
      request: 'launch',
      name: 'ReplicaSet controller on the view cluster (integration)',
      controller: path.join(examples, 'replicaset-controller/controller.ts'),
      scenario: path.join(examples, 'replicaset-controller/scenario.yaml'),
      cluster: 'view',
      stopOnEntry: true,
    });
    assert.equal(started, true);
    const session = vscode.debug.activeDebugSession;
    assert.ok(session);
    assert.equal(typeof session.configuration.cluster, 'object', 'the adapter got the view cluster\'s kubeconfig');
    const kubeconfig = (session.configuration.cluster as { kubeconfig: string }).kubeconfig;
    assert.equal(kubeconfig, await vscode.commands.executeCommand('controllerLab.copySimKubeconfigPath'));
    await waitFor('a stopped event', () => stops()[before]);
    const trace = (await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { name: string }[] };
    assert.match(trace.stackFrames[0]?.name ?? '', /^reconcile ReplicaSet default\/(web|api) #1/);
  });

  it('ends the session on stop', async () => {
    const session = vscode.debug.activeDebugSession;
    assert.ok(session);
    const ended = new Promise<void>((resolve) => {
      const sub = vscode.debug.onDidTerminateDebugSession((s) => {
        if (s.id === session.id) {
          sub.dispose();
          resolve();
        }
      });
    });
    await vscode.debug.stopDebugging(session);
    await ended;
  });
});

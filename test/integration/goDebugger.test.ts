import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './waitFor.ts';

// `"goDebugger": "vscode-go"` in a VS Code without the Go extension (golang.go cannot be
// installed here): the launch falls back to Controller Lab's own Delve connection, and Step Into
// at a reconcile stop enters the Go program's Reconcile through it.

interface DapMessage {
  type: string;
  event?: string;
  command?: string;
  body?: Record<string, unknown>;
}

describe('Go debugger choice without the Go extension', function () {
  // go build -gcflags=all=-N -l of the example, dlv, the simulated cluster.
  this.timeout(240_000);
  const messages: DapMessage[] = [];
  let tracker: vscode.Disposable | undefined;
  let root = '';

  before(async () => {
    const ext = vscode.extensions.getExtension('controller-lab.controller-lab');
    assert.ok(ext, 'extension is installed');
    await ext.activate();
    root = ext.extensionPath;
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('controller-lab', {
      createDebugAdapterTracker: () => ({ onDidSendMessage: (m: DapMessage) => messages.push(m) }),
    });
  });

  after(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
    tracker?.dispose();
  });

  it('falls back to the built-in Delve path, where Step Into lands in Reconcile', async () => {
    assert.equal(vscode.extensions.getExtension('golang.go'), undefined, 'this check is about a VS Code without the Go extension');
    const example = path.join(root, 'go/examples/configmap-mirror');
    const started = await vscode.debug.startDebugging(undefined, {
      type: 'controller-lab',
      request: 'launch',
      name: 'Go example through the Go extension (integration)',
      program: example,
      scenario: path.join(example, 'scenario.yaml'),
      cluster: 'sim',
      stopOnEntry: true,
      goDebugger: 'vscode-go',
    });
    assert.equal(started, true);
    const session = vscode.debug.activeDebugSession;
    assert.ok(session && session.type === 'controller-lab');
    assert.equal(session.configuration.goDebugger, 'controller-lab');
    assert.equal(session.configuration.lineBreakpoints, true);

    const stops = () => messages.filter((m) => m.type === 'event' && m.event === 'stopped');
    const entry = await waitFor('the stop on entry', () => stops()[0], 180_000);
    assert.equal(entry.body?.['reason'], 'entry');
    await session.customRequest('stepIn', { threadId: entry.body?.['threadId'] ?? 1 });
    const inside = await waitFor('the stop in Reconcile', () => stops()[1], 60_000);
    const goroutine = Number(inside.body?.['threadId']);
    assert.ok(goroutine > 1000, `a goroutine thread: ${goroutine}`);
    const trace = (await session.customRequest('stackTrace', { threadId: goroutine })) as { stackFrames: { name: string; source?: { path?: string } }[] };
    assert.match(trace.stackFrames[0]?.name ?? '', /mirrorReconciler\)\.Reconcile$/);
    // code-server answers with the remote form of the path (vscode-remote://host/…).
    assert.ok(trace.stackFrames[0]?.source?.path?.endsWith(path.join(example, 'main.go')), trace.stackFrames[0]?.source?.path);
    assert.equal(messages.filter((m) => m.event === 'controllerLab.attachGoDebugger').length, 0, 'nothing was handed to a Go extension');
    await vscode.debug.stopDebugging(session);
  });
});

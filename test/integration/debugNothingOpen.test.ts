import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './waitFor.ts';

// "Debug Controller on Simulated Cluster" with no file open in examples/ (the walkthrough's Debug
// Controller button, on a first run): it offers the controllers the workspace's launch
// configurations name, and the one picked is debugged with the scenario beside it.

describe('Debug Controller with no file open', function () {
  this.timeout(90_000);

  after(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
  });

  it('offers the launch configurations\' controllers and debugs the one picked', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    let session: vscode.DebugSession | undefined;
    const sub = vscode.debug.onDidStartDebugSession((s) => (session ??= s));
    try {
      const command = vscode.commands.executeCommand('controllerLab.debugController');
      // The first entry is launch.json's first controller; Enter on the picker takes it.
      await new Promise((r) => setTimeout(r, 1500));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await command;
      await waitFor('a debug session', () => session);
    } finally {
      sub.dispose();
    }
    assert.match(String(session!.configuration['controller']), /replicaset-controller\/controller\.ts$/);
    assert.match(String(session!.configuration['scenario']), /replicaset-controller\/scenario\.yaml$/);
  });
});

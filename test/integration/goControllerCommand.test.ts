import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ControllerLabApi } from '../../src/extension.ts';
import { waitFor } from './waitFor.ts';

// A Go author opens their controller (a kubebuilder project's internal/controller/*.go, package
// controller) and runs "Debug Controller on Simulated Cluster": the session runs the project's
// program — its main package that calls controllerlab.Wrap(mgr) — with the project's scenario,
// rather than failing to build a package that is no program. Check Controller finds the same program,
// and Stop Check ends the check it started.

describe('Debug Controller with a Go controller file open', function () {
  this.timeout(60_000);
  let root = '';
  let api: ControllerLabApi;

  before(async () => {
    const ext = vscode.extensions.getExtension<ControllerLabApi>('controller-lab.controller-lab');
    assert.ok(ext, 'extension is installed');
    api = await ext.activate();
    root = ext.extensionPath;
  });

  after(async () => {
    if (vscode.debug.activeDebugSession) await vscode.debug.stopDebugging(vscode.debug.activeDebugSession);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('debugs the module program that calls controllerlab.Wrap, with its scenario', async () => {
    const project = path.join(root, 'examples', 'go-guestbook');
    const controller = path.join(project, 'internal', 'controller', 'guestbook_controller.go');
    await vscode.window.showTextDocument(vscode.Uri.file(controller));
    const sessions: vscode.DebugSession[] = [];
    const listener = vscode.debug.onDidStartDebugSession((s) => sessions.push(s));
    try {
      await vscode.commands.executeCommand('controllerLab.debugController');
      const session = await waitFor('the debug session', () => sessions.find((s) => s.type === 'controller-lab'), 30_000);
      assert.equal(session.configuration.program, path.join(project, 'cmd'));
      assert.equal(session.configuration.controller, undefined);
      assert.equal(session.configuration.scenario, path.join(project, 'scenario.yaml'));
      await vscode.debug.stopDebugging(session);
    } finally {
      listener.dispose();
    }
  });

  it('checks the module program that calls controllerlab.Wrap, with its scenario, until Stop Check', async function () {
    this.timeout(180_000);
    const project = path.join(root, 'examples', 'go-guestbook');
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(project, 'internal', 'controller', 'guestbook_controller.go')));
    const model = api.checkFindings.model;
    const check = vscode.commands.executeCommand('controllerLab.checkController');
    await waitFor('the check to start', () => model.running || undefined, 30_000);
    assert.match(model.message() ?? '', /^Checking go-guestbook with scenario\.yaml: /);
    assert.equal(await vscode.commands.executeCommand('controllerLab.stopCheck'), true);
    await check;
    assert.equal(model.running, false);
    assert.match(model.message() ?? '', /^go-guestbook with scenario\.yaml: .*cancel/);
    assert.equal(await vscode.commands.executeCommand('controllerLab.stopCheck'), false, 'no check left to stop');
  });
});

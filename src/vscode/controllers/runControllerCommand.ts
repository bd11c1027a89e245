import * as vscode from 'vscode';
import { explainUntrusted, isTrusted } from '../workspaceTrust.ts';
import { controllerFileFor, scenarioNextTo } from './controllerFiles.ts';
import { runControllerInTerminal } from './runInTerminal.ts';

/** "Run Controller": runs it in this extension host (so the Controllers tree and the timeline follow it), its output in a terminal. */
export async function runController(uri?: vscode.Uri): Promise<void> {
  if (!isTrusted()) return explainUntrusted();
  const file = controllerFileFor(uri);
  if (!file) {
    void vscode.window.showInformationMessage('Open your controller file to run it with Controller Lab.');
    return;
  }
  const { terminal } = runControllerInTerminal({
    file,
    scenario: await scenarioNextTo(file),
    cwd: vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))?.uri.fsPath,
  });
  terminal.show();
}

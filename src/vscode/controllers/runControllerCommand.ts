import * as vscode from 'vscode';
import { explainUntrusted, isTrusted } from '../workspaceTrust.ts';
import { chooseController } from './chooseController.ts';
import { runControllerInTerminal } from './runInTerminal.ts';

/** "Run Controller": runs it in this extension host (so the Controllers tree and the timeline follow it), its output in a terminal. */
export async function runController(uri?: vscode.Uri): Promise<void> {
  if (!isTrusted()) return explainUntrusted();
  const chosen = await chooseController(uri, 'run');
  if (!chosen) return;
  const file = 'program' in chosen ? chosen.program : chosen.controller;
  const { terminal } = runControllerInTerminal({ file, scenario: chosen.scenario, cwd: vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))?.uri.fsPath });
  terminal.show();
}

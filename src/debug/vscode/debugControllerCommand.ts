import * as vscode from 'vscode';
import { explainUntrusted, isTrusted } from '../../vscode/workspaceTrust.ts';
import { chooseController } from '../../vscode/controllers/chooseController.ts';
import { DEBUG_TYPE } from './debugType.ts';

/** "Debug Controller": the controller in the editor (or the given file) on a simulated cluster, stopping at the first reconcile. */
export async function debugController(uri?: vscode.Uri): Promise<void> {
  if (!isTrusted()) return explainUntrusted();
  const chosen = await chooseController(uri, 'debug');
  if (!chosen) return;
  const target = 'program' in chosen ? chosen.program : chosen.controller;
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(target));
  await vscode.debug.startDebugging(folder, { type: DEBUG_TYPE, request: 'launch', name: 'Debug controller', ...chosen, cluster: 'sim', stopOnEntry: true });
}

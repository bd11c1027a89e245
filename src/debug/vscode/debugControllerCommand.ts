import * as vscode from 'vscode';
import { explainUntrusted, isTrusted } from '../../vscode/workspaceTrust.ts';
import { controllerFileFor, scenarioNextTo } from '../../vscode/controllers/controllerFiles.ts';
import { DEBUG_TYPE, launchTarget } from './debugType.ts';

/** "Debug Controller": the controller in the editor (or the given file) on a simulated cluster, stopping at the first reconcile. */
export async function debugController(uri?: vscode.Uri): Promise<void> {
  if (!isTrusted()) return explainUntrusted();
  const file = controllerFileFor(uri);
  if (!file) {
    void vscode.window.showInformationMessage('Open your controller file to debug it with Controller Lab.');
    return;
  }
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file));
  const scenario = await scenarioNextTo(file);
  await vscode.debug.startDebugging(folder, {
    type: DEBUG_TYPE,
    request: 'launch',
    name: 'Debug controller',
    ...launchTarget(file),
    cluster: 'sim',
    stopOnEntry: true,
    ...(scenario ? { scenario } : {}),
  });
}

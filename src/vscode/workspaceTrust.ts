import * as vscode from 'vscode';

// Running or debugging a controller executes the user's code on this machine: only in a trusted
// workspace, and an untrusted one is told how to trust it.

const TRUST_MESSAGE =
  'Controller Lab runs your controller only in a trusted workspace: its code executes on this machine. Trust the workspace to debug or run it.';

export function isTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/** Says why trust is needed (`message`: what this command would run) and offers to manage it. */
export async function explainUntrusted(message = TRUST_MESSAGE): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, 'Manage Workspace Trust');
  if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
}

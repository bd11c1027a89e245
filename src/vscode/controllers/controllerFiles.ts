import * as vscode from 'vscode';

// Which file is "the controller" for the Run and Debug commands, and the scenario that goes with it.

export function isControllerEditor(editor: vscode.TextEditor | undefined): editor is vscode.TextEditor {
  return !!editor && ['typescript', 'javascript', 'go'].includes(editor.document.languageId);
}

/** The command's argument (explorer, editor title), else the controller in the active editor. */
export function controllerFileFor(uri: vscode.Uri | undefined): string | undefined {
  return uri?.fsPath ?? (isControllerEditor(vscode.window.activeTextEditor) ? vscode.window.activeTextEditor.document.uri.fsPath : undefined);
}

export function exists(uri: vscode.Uri): Thenable<boolean> {
  return vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
}

/** A `scenario.yaml` next to the controller seeds the simulated cluster (the examples' layout). */
export async function scenarioNextTo(file: string): Promise<string | undefined> {
  const scenario = vscode.Uri.joinPath(vscode.Uri.file(file), '..', 'scenario.yaml');
  return (await exists(scenario)) ? scenario.fsPath : undefined;
}

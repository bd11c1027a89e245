import * as vscode from 'vscode';
import { includeTypesIn } from './tsconfigInclude.ts';

// "Controller Lab: Add Controller Types to Workspace": copies types/controller-lab.d.ts into the
// workspace so `import { defineController } from 'controller-lab'` type-checks in the editor, and
// makes sure the workspace's tsconfig.json includes it (an ambient module declaration needs to be
// part of the program; `paths` alone cannot point at it).

const TYPES_PATH = 'types/controller-lab.d.ts';

export async function addControllerTypes(extensionUri: vscode.Uri): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    void vscode.window.showErrorMessage('Controller Lab: open a folder first; the types are written into it.');
    return;
  }
  const source = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'types', 'controller-lab.d.ts'));
  const target = vscode.Uri.joinPath(folder.uri, TYPES_PATH);
  await vscode.workspace.fs.writeFile(target, source);
  const hint = await includeInTsconfig(folder.uri);
  const open = 'Open Types';
  const choice = await vscode.window.showInformationMessage(`Controller Lab: wrote ${TYPES_PATH}. ${hint}`, open);
  if (choice === open) await vscode.window.showTextDocument(target);
}

/** Adds the file to tsconfig's `include` when the file is plain JSON; otherwise says what to add. */
async function includeInTsconfig(folder: vscode.Uri): Promise<string> {
  const uri = vscode.Uri.joinPath(folder, 'tsconfig.json');
  const existing = await vscode.workspace.fs.readFile(uri).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => undefined,
  );
  const edit = includeTypesIn(existing, TYPES_PATH);
  if (edit.text !== undefined) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(edit.text));
  return edit.hint;
}

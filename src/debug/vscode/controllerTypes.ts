import * as vscode from 'vscode';
import { includeTypesIn } from './tsconfigInclude.ts';

// "Controller Lab: Add Controller Types to Workspace": copies types/controller-lab.d.ts into the
// workspace so `import { defineController } from 'controller-lab'` type-checks in the editor, and
// makes sure the workspace's tsconfig.json includes it (an ambient module declaration needs to be
// part of the program; `paths` alone cannot point at it). In a Go project (a go.mod, no TypeScript)
// those files are noise unless the user means to write a TypeScript controller there: ask first,
// and offer the Go equivalent.

const TYPES_PATH = 'types/controller-lab.d.ts';
const SET_UP_GO = 'Set Up This Go Project';
const ADD_ANYWAY = 'Add TypeScript Types Anyway';

/** What the command did: the files it wrote, and whether it asked first (a Go project). */
export interface ControllerTypesResult {
  wrote: string[];
  askedGoProject: boolean;
}

export async function addControllerTypes(extensionUri: vscode.Uri, arg?: unknown): Promise<ControllerTypesResult | undefined> {
  const folder = await targetFolder(arg);
  if (!folder) {
    void vscode.window.showErrorMessage('Controller Lab: open a folder first; the types are written into it.');
    return undefined;
  }
  const goProject = await isGoOnly(folder);
  if (goProject) {
    const choice = await vscode.window.showInformationMessage(
      'Controller Lab: this is a Go project. The controller types are for TypeScript controllers; a Go controller uses ' +
        "Controller Lab's Go module, which Set Up This Go Project adds. Add the TypeScript types and a tsconfig.json anyway?",
      SET_UP_GO,
      ADD_ANYWAY,
    );
    if (choice === SET_UP_GO) await vscode.commands.executeCommand('controllerLab.setUpGoProject', vscode.Uri.joinPath(folder, 'go.mod'));
    if (choice !== ADD_ANYWAY) return { wrote: [], askedGoProject: true };
  }
  const source = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'types', 'controller-lab.d.ts'));
  const target = vscode.Uri.joinPath(folder, TYPES_PATH);
  await vscode.workspace.fs.writeFile(target, source);
  const { hint, wroteTsconfig } = await includeInTsconfig(folder);
  const open = 'Open Types';
  void vscode.window.showInformationMessage(`Controller Lab: wrote ${TYPES_PATH}. ${hint}`, open).then(async (choice) => {
    if (choice === open) await vscode.window.showTextDocument(target);
  });
  return { wrote: wroteTsconfig ? [TYPES_PATH, 'tsconfig.json'] : [TYPES_PATH], askedGoProject: goProject };
}

/** The folder it was run on (a Uri argument), else the active editor's workspace folder, else the first. */
async function targetFolder(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) {
    const stat = await vscode.workspace.fs.stat(arg);
    return stat.type & vscode.FileType.Directory ? arg : vscode.Uri.joinPath(arg, '..');
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
  return folder?.uri;
}

/** A go.mod and nothing of TypeScript: no package.json, no tsconfig.json, no .ts file. */
async function isGoOnly(folder: vscode.Uri): Promise<boolean> {
  const exists = (name: string) => vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, name)).then(() => true, () => false);
  if (!(await exists('go.mod'))) return false;
  if ((await exists('package.json')) || (await exists('tsconfig.json'))) return false;
  const ts = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*.{ts,mts,cts}'), '**/{node_modules,vendor,.git}/**', 1);
  return ts.length === 0;
}

/** Adds the file to tsconfig's `include` when the file is plain JSON; otherwise says what to add. */
async function includeInTsconfig(folder: vscode.Uri): Promise<{ hint: string; wroteTsconfig: boolean }> {
  const uri = vscode.Uri.joinPath(folder, 'tsconfig.json');
  const existing = await vscode.workspace.fs.readFile(uri).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => undefined,
  );
  const edit = includeTypesIn(existing, TYPES_PATH);
  if (edit.text !== undefined) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(edit.text));
  return { hint: edit.hint, wroteTsconfig: edit.text !== undefined };
}

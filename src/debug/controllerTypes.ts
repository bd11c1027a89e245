import * as vscode from 'vscode';

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
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    const config = { compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, noEmit: true }, include: ['**/*.ts', TYPES_PATH] };
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(config, null, 2) + '\n'));
    return 'Created tsconfig.json including it.';
  }
  let config: { include?: string[]; files?: string[] };
  try {
    config = JSON.parse(text) as typeof config;
  } catch {
    return `Add "${TYPES_PATH}" to "include" in tsconfig.json.`;
  }
  if (config.include?.includes(TYPES_PATH) || config.files?.includes(TYPES_PATH)) return 'tsconfig.json already includes it.';
  if (!config.include && !config.files) return 'tsconfig.json includes every .ts file, so it is picked up.';
  if (config.include) config.include.push(TYPES_PATH);
  else config.files?.push(TYPES_PATH);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(config, null, 2) + '\n'));
  return 'Added it to tsconfig.json.';
}

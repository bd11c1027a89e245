import { existsSync } from 'node:fs';
import * as vscode from 'vscode';

// The controller files the workspace's launch configurations name (examples/ has four configurations
// over two controllers): what Debug/Run/Check Controller offer when no controller file is open,
// before a file dialog.

/** The debug type of Controller Lab's launch configurations (package.json's debugger). */
const DEBUG_TYPE = 'controller-lab';

export function controllersInLaunchConfigurations(): string[] {
  const found = new Set<string>();
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const configurations = vscode.workspace.getConfiguration('launch', folder.uri).get<unknown[]>('configurations') ?? [];
    for (const c of configurations) {
      if (typeof c !== 'object' || c === null) continue;
      const { type, controller } = c as { type?: unknown; controller?: unknown };
      if (type !== DEBUG_TYPE || typeof controller !== 'string') continue;
      const path = controller.replaceAll('${workspaceFolder}', folder.uri.fsPath);
      if (existsSync(path)) found.add(path);
    }
  }
  return [...found];
}

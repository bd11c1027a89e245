import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';

// The extension carries the whole `controller-lab` CLI (dist/cli.cjs). Its integrated terminals get
// it on the PATH, and $CONTROLLER_LAB (which simtest reads) names it, so `controller-lab run …` and
// `make test` on simtest work in a terminal with nothing else installed. The command runs on the
// Node that runs the extension host (Electron's, told to act as Node).

/** The script's text: one exec of this extension's CLI on this extension host's Node. */
export function cliShim(nodePath: string, cliPath: string, version: string): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return [
    '#!/bin/sh',
    `# controller-lab ${version}, as bundled with the Controller Lab VS Code extension (rewritten at each activation).`,
    `ELECTRON_RUN_AS_NODE=1 exec ${quote(nodePath)} --max-semi-space-size=4 ${quote(cliPath)} "$@"`,
    '',
  ].join('\n');
}

/** Writes the shim into the extension's storage and hands it to the integrated terminals; its path, once written. */
export async function offerBundledCli(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<string | undefined> {
  // Windows terminals would need a .cmd; the product's controller processes are POSIX-only today.
  if (process.platform === 'win32') return undefined;
  const binDir = vscode.Uri.joinPath(context.globalStorageUri, 'bin').fsPath;
  const shim = path.join(binDir, 'controller-lab');
  const cli = vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.cjs').fsPath;
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '');
  try {
    await mkdir(binDir, { recursive: true, mode: 0o700 });
    await writeFile(shim, cliShim(process.execPath, cli, version), { mode: 0o755 });
    await chmod(shim, 0o755);
  } catch (err) {
    log.warn(`the bundled controller-lab command could not be written to ${shim}: ${(err as Error).message}`);
    return undefined;
  }
  const env = context.environmentVariableCollection;
  env.description = 'Puts the controller-lab command bundled with the extension on the PATH (after any you installed) and names it in $CONTROLLER_LAB for simtest.';
  env.append('PATH', `${path.delimiter}${binDir}`);
  // A CONTROLLER_LAB of the user's own stays theirs.
  if (!process.env.CONTROLLER_LAB) env.replace('CONTROLLER_LAB', shim);
  else env.delete('CONTROLLER_LAB');
  return shim;
}

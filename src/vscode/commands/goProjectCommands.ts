import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { setUpGoProject, setupLines, type GoProjectSetup } from '../../setup/index.ts';
import type { LabServices } from '../services.ts';
import { explainUntrusted, isTrusted } from '../workspaceTrust.ts';
import { registerGuarded } from '../guard.ts';
import { goSetupNotice } from './goSetupNotice.ts';

// "Controller Lab: Set Up This Go Project": what `controller-lab init go` does, for a folder of the
// workspace (or the folder of the go.mod it was run on), with the change list in the output.

const UNTRUSTED = 'Controller Lab sets up a Go project only in a trusted workspace: it runs go (go mod tidy, gofmt) in the project. Trust the workspace to set it up.';

/** The project folder: the one the command was run on (a folder, or a go.mod), else the workspace's, asking when there are several. */
async function projectFolder(arg: unknown): Promise<string | undefined> {
  if (arg instanceof vscode.Uri && arg.scheme === 'file') {
    return statSync(arg.fsPath, { throwIfNoEntry: false })?.isDirectory() ? arg.fsPath : dirname(arg.fsPath);
  }
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) throw new Error("open the Go project's folder first (File: Open Folder…)");
  if (folders.length === 1) return folders[0]!.uri.fsPath;
  const picked = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Set up which Go project for Controller Lab?' });
  return picked?.uri.fsPath;
}

/**
 * `bundledCli`: the controller-lab command the extension puts in its terminals, once written. simtest
 * finds it there, so the project's tests run in a VS Code terminal with nothing else installed.
 */
export function registerGoProjectCommands(services: LabServices, bundledCli: () => Promise<string | undefined>): vscode.Disposable[] {
  const { log } = services;
  return [
    registerGuarded(log, 'controllerLab.setUpGoProject', async (arg: unknown): Promise<GoProjectSetup | undefined> => {
      if (!isTrusted()) {
        await explainUntrusted(UNTRUSTED);
        return undefined;
      }
      const dir = await projectFolder(arg);
      if (!dir) return undefined;
      const shim = await bundledCli();
      const inTerminals = shim !== undefined && !process.env.CONTROLLER_LAB;
      const env = inTerminals ? { ...process.env, CONTROLLER_LAB: shim } : process.env;
      const setup = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Controller Lab: setting up the Go project' },
        (progress) => setUpGoProject({ dir, env, progress: (step) => progress.report({ message: step }) }),
      );
      const lines = setupLines(setup.changes);
      log.info(`Set up ${dir} for Controller Lab:`);
      for (const line of lines) log.info(`  ${line}`);
      log.info(`  next: ${setup.next.join('; then ')}`);
      const OPEN = 'Open Starter Scenario';
      const SHOW = 'Show Changes';
      // The command is done; the message waits for the user on its own.
      void vscode.window
        .showInformationMessage(goSetupNotice(dir, setup, inTerminals), OPEN, SHOW)
        .then(async (choice) => {
          if (choice === OPEN) await vscode.window.showTextDocument(vscode.Uri.file(setup.starterScenario));
          else if (choice === SHOW) log.show(true);
        });
      return setup;
    }, 'Set up Go project'),
  ];
}

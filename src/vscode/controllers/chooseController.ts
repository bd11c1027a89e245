import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { goProgramsFor, type GoProgram } from '../../runtime/index.ts';
import { controllerFileFor, scenarioNextTo } from './controllerFiles.ts';
import { controllersInLaunchConfigurations } from './launchControllers.ts';

// What "Debug/Run Controller on Simulated Cluster" and "Check Controller…" start. A TypeScript file
// runs as it is; a Go file or folder outside package main (a kubebuilder project's
// internal/controller) or a Go project with nothing open runs the module's program that calls
// controllerlab.Wrap(mgr), with the project's scenario.

export type ChosenController = { controller: string; scenario?: string } | { program: string; scenario?: string };

/** Undefined after telling the user what is missing (or when they cancelled a choice). */
export async function chooseController(uri: vscode.Uri | undefined, verb: 'debug' | 'run' | 'check'): Promise<ChosenController | undefined> {
  const file = controllerFileFor(uri) ?? goWorkspaceFolder() ?? (await pickListedController(verb));
  if (!file) return undefined;
  if (!file.endsWith('.go') && !isDirectory(file)) {
    const scenario = await scenarioNextTo(file);
    return scenario ? { controller: file, scenario } : { controller: file };
  }
  const choice = goProgramsFor(file);
  if ('problem' in choice) {
    const setUp = 'Set Up This Go Project';
    const action = await vscode.window.showWarningMessage(`Controller Lab cannot ${verb} this: ${choice.problem}.`, ...(choice.problem.includes(setUp) ? [setUp] : []));
    if (action === setUp) await vscode.commands.executeCommand('controllerLab.setUpGoProject');
    return undefined;
  }
  const program = choice.programs.length === 1 ? choice.programs[0] : await pickProgram(choice.programs, verb);
  return program;
}

const COMMAND_OF: Record<'debug' | 'run' | 'check', string> = { debug: 'controllerLab.debugController', run: 'controllerLab.runController', check: 'controllerLab.checkController' };

const CHOOSE = 'Choose a File…';

/**
 * With no controller file open: the controllers the workspace's launch configurations name, to pick
 * from (or a file); with none, says what is missing and offers the file dialog. Undefined when
 * nothing was picked here (the dialog then runs the command again on its file).
 */
async function pickListedController(verb: 'debug' | 'run' | 'check'): Promise<string | undefined> {
  const listed = controllersInLaunchConfigurations();
  if (listed.length === 0) {
    offerToChooseFile(verb);
    return undefined;
  }
  const items = listed.map((path) => ({ label: vscode.workspace.asRelativePath(path, false), description: 'in launch.json', path }));
  const picked = await vscode.window.showQuickPick([...items, { label: CHOOSE, description: '', path: '' }], {
    title: `Controller Lab: which controller to ${verb}?`,
    placeHolder: 'No controller file is open: the workspace\'s launch configurations name these',
  });
  if (picked?.label === CHOOSE) await chooseFile(verb);
  return picked?.path || undefined;
}

/** Says what is missing, with a way to pick the file; the command then runs again on it. */
function offerToChooseFile(verb: 'debug' | 'run' | 'check'): void {
  void vscode.window.showInformationMessage(`Controller Lab: open your controller file to ${verb} it (TypeScript or JavaScript, or a Go project's controller or main.go).`, CHOOSE).then(async (action) => {
    if (action === CHOOSE) await chooseFile(verb);
  });
}

async function chooseFile(verb: 'debug' | 'run' | 'check'): Promise<void> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    openLabel: `${verb[0]!.toUpperCase()}${verb.slice(1)} This Controller`,
    filters: { Controllers: ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs', 'go'] },
  });
  if (picked?.[0]) await vscode.commands.executeCommand(COMMAND_OF[verb], picked[0]);
}

/** The first workspace folder that is a Go module, for the commands run with no editor open. */
export function goWorkspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath).find((dir) => existsSync(join(dir, 'go.mod')));
}

async function pickProgram(programs: GoProgram[], verb: string): Promise<GoProgram | undefined> {
  const picked = await vscode.window.showQuickPick(
    programs.map((p) => ({ label: vscode.workspace.asRelativePath(p.program, false), description: p.scenario ? `scenario ${vscode.workspace.asRelativePath(p.scenario, false)}` : undefined, program: p })),
    { title: `Controller Lab: which Go program to ${verb}?`, placeHolder: 'Main packages that call controllerlab.Wrap(mgr)' },
  );
  return picked?.program;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { checkController, CheckInputError, checkProgress, checkVerdict, describeFinding, describeReport, replayCommand, type CheckEvent, type CheckReport } from '../../check/index.ts';
import { chooseController, goWorkspaceFolder, type ChosenController } from '../controllers/chooseController.ts';
import { exists, isControllerEditor } from '../controllers/controllerFiles.ts';
import type { Log } from '../guard.ts';
import { explainUntrusted, isTrusted } from '../workspaceTrust.ts';
import { programName } from '../../runtime/index.ts';
import type { CheckTarget } from './checkTarget.ts';
import type { FindingsModel } from './findingsModel.ts';

// Check Controller: finds a controller's bugs as `controller-lab check` does, here in the extension
// host, with a progress notification (cancelled between runs), the report in the Controller Lab
// output, and the findings in the Check Findings view as they come. What the command is not given
// (a launch configuration with "check": true gives it all) comes from the active editor or a picker.

/** The running check's, so that Stop Check (the view's toolbar) can end it as the notification can. */
let running: AbortController | undefined;

/** Stops the running check between runs; false when none runs. */
export function stopCheckCommand(): boolean {
  if (!running) return false;
  running.abort();
  return true;
}

/** As `controller-lab check` by default. */
const BUDGET_MS = 5 * 60_000;
const REFERENCE_RUNS = 2;

export async function checkControllerCommand(model: FindingsModel, log: Log, arg: vscode.Uri | Partial<CheckTarget> | undefined, reveal: () => void): Promise<CheckReport | undefined> {
  if (!isTrusted()) {
    await explainUntrusted('Controller Lab checks your controller only in a trusted workspace: it runs the controller\'s code on this machine, many times. Trust the workspace to check it.');
    return undefined;
  }
  if (model.running) {
    void vscode.window.showInformationMessage('Controller Lab: a check is running; Stop Check (the Check Findings view’s toolbar) or its progress notification can cancel it.');
    return undefined;
  }
  const target = await targetFor(arg);
  if (!target) return undefined;
  model.start(target);
  reveal();
  return runCheck(target, model, log, reveal);
}

async function runCheck(target: CheckTarget, model: FindingsModel, log: Log, reveal: () => void): Promise<CheckReport | undefined> {
  const name = programName(target.program);
  const given = { program: target.program, scenario: target.scenario, workloads: Boolean(target.workloads), as: target.as, programArgs: target.args ?? [] };
  log.info(`check: ${target.program} from ${target.scenario}`);
  let report: CheckReport;
  try {
    report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Checking ${name}`, cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      running = abort;
      token.onCancellationRequested(() => abort.abort());
      let planned = 0;
      const describe = checkProgress();
      const onEvent = (e: CheckEvent) => {
        const line = describe(e);
        if (line !== undefined) log.info(line);
        if (e.type === 'finding') model.add(e.finding);
        if (e.type === 'reference') progress.report({ message: `reference run ${e.run} of ${REFERENCE_RUNS} done` });
        if (e.type === 'planned') {
          planned = e.plans;
          model.progress(0, planned);
          progress.report({ message: `${planned} perturbed run(s) planned` });
        }
        if (e.type === 'run') {
          model.progress(e.done, planned);
          progress.report({ increment: 100 / Math.max(1, planned), message: `run ${e.done} of ${planned} · ${model.roots().length} finding(s)` });
        }
      };
      return checkController(
        {
          program: target.program,
          args: target.args ?? [],
          ...(target.cwd ? { cwd: target.cwd } : {}),
          scenario: target.scenario,
          workloads: given.workloads,
          ...(target.as ? { as: target.as } : {}),
          budgetMs: BUDGET_MS,
          replayCommand: (plan) => replayCommand(given, plan),
          signal: abort.signal,
        },
        onEvent,
      );
    });
  } catch (err) {
    running = undefined;
    const cancelled = err instanceof Error && err.name === 'AbortError';
    const message = cancelled ? 'cancelled during its reference runs' : err instanceof Error ? err.message : String(err);
    log.error(`check: ${message}`);
    model.fail(message);
    if (!cancelled) void vscode.window.showErrorMessage(`Controller Lab could not check ${name}: ${message}${err instanceof CheckInputError ? '' : ' (the Controller Lab output has the details)'}`);
    return undefined;
  }
  running = undefined;
  report.findings.forEach((f, i) => log.info(`\n${describeFinding(f, i + 1)}`));
  log.info(describeReport(report));
  model.finish(report);
  const verdict = checkVerdict(name, report);
  if (report.findings.length > 0) void offerFindings(verdict.text, reveal);
  else void (verdict.warning ? vscode.window.showWarningMessage(verdict.text) : vscode.window.showInformationMessage(verdict.text));
  return report;
}

const REPLAY = 'Replay in Debugger';
const SHOW = 'Show Findings';

/** Findings: the notification goes to them (Replay asks which when there are several). */
async function offerFindings(text: string, reveal: () => void): Promise<void> {
  const choice = await vscode.window.showInformationMessage(text, REPLAY, SHOW);
  if (choice === REPLAY) await vscode.commands.executeCommand('controllerLab.replayFinding');
  else if (choice === SHOW) reveal();
}

/** What to check: given, or the active editor's controller and a scenario picked for it. */
async function targetFor(arg: vscode.Uri | Partial<CheckTarget> | undefined): Promise<CheckTarget | undefined> {
  const given: Partial<CheckTarget> = arg instanceof vscode.Uri ? { program: arg.fsPath } : (arg ?? {});
  let program = given.program;
  let scenario = given.scenario;
  if (program && scenario) {
    // A launch configuration's: a Go file stands for its package, built from its directory.
    if (program.endsWith('.go')) program = dirname(program);
  } else {
    const chosen = await controllerToCheck(program);
    if (!chosen) return undefined;
    program = 'program' in chosen ? chosen.program : chosen.controller;
    scenario ??= chosen.scenario;
  }
  if (!scenario) {
    const near = vscode.Uri.file(program.endsWith('.ts') || program.endsWith('.js') ? dirname(program) : program);
    const beside = vscode.Uri.joinPath(near, 'scenario.yaml');
    const picked = await vscode.window.showOpenDialog({
      title: `Check ${programName(program)}: the scenario every run starts from`,
      canSelectMany: false,
      filters: { Scenario: ['yaml', 'yml'] },
      openLabel: 'Use Scenario',
      defaultUri: (await exists(beside)) ? beside : near,
    });
    scenario = picked?.[0]?.fsPath;
    if (!scenario) return undefined;
  }
  const cwd = given.cwd ?? vscode.workspace.getWorkspaceFolder(vscode.Uri.file(program))?.uri.fsPath;
  return { ...given, program, scenario, ...(cwd ? { cwd } : {}) };
}

/**
 * The controller the user points at (an explorer item, the editor, or a file picked here when there
 * is neither and no Go project is open), resolved as Debug Controller resolves it: a kubebuilder
 * controller's file checks the module's program that calls controllerlab.Wrap, with its scenario.
 */
async function controllerToCheck(pointed: string | undefined): Promise<ChosenController | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!pointed && !isControllerEditor(editor) && !goWorkspaceFolder()) {
    const picked = await vscode.window.showOpenDialog({
      title: 'Check Controller: the controller (a TypeScript file, or a Go program\'s directory)',
      canSelectFiles: true,
      canSelectFolders: true,
      canSelectMany: false,
      openLabel: 'Check',
      ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
    });
    pointed = picked?.[0]?.fsPath;
    if (!pointed) return undefined;
  }
  return chooseController(pointed ? vscode.Uri.file(pointed) : undefined, 'check');
}

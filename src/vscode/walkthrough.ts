import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { STEP_CONTEXT_KEYS, WALKTHROUGH_ID } from './walkthroughSteps.ts';
import type { WalkthroughStep } from './walkthroughSteps.ts';

// The getting-started walkthrough: opened once, the first time the extension runs (remembered in
// globalState, so never again after), and its steps tick as the user does each thing — whichever
// way they do it (a tree button, the palette, a link) — through context keys set here.

const SHOWN_KEY = 'controllerLab.walkthroughShown';
/**
 * Also a file in the extension's global storage: in a browser workbench (code-server, Codespaces)
 * globalState reaches disk on the page's own schedule, so a reload soon after the first run could
 * forget it and show the walkthrough again; the file is written at once, where the extension runs.
 */
const SHOWN_FILE = 'walkthrough-shown';

function shownBefore(context: vscode.ExtensionContext): boolean {
  if (context.globalState.get<boolean>(SHOWN_KEY)) return true;
  return existsSync(join(context.globalStorageUri.fsPath, SHOWN_FILE));
}

function rememberShown(context: vscode.ExtensionContext): void {
  void context.globalState.update(SHOWN_KEY, true);
  try {
    mkdirSync(context.globalStorageUri.fsPath, { recursive: true });
    writeFileSync(join(context.globalStorageUri.fsPath, SHOWN_FILE), '');
  } catch {
    // globalState still remembers it; the file only guards against a lost write.
  }
}

/** Marks a step done (its context key true; VS Code then keeps the step ticked). */
export function completeStep(step: WalkthroughStep): void {
  void vscode.commands.executeCommand('setContext', STEP_CONTEXT_KEYS[step], true);
}

/** Opens the walkthrough on the first run only. Returns whether it opened it. */
export function openWalkthroughOnFirstRun(context: vscode.ExtensionContext): boolean {
  // The integration tests' extension host is not a user's first run.
  if (context.extensionMode === vscode.ExtensionMode.Test) return false;
  if (shownBefore(context)) return false;
  rememberShown(context);
  // Never in the way: `inactive` keeps the focus where the user is (a Quick Open being typed into, a
  // file in front stays in front); in an empty editor area the walkthrough is what shows.
  void vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, { toSide: false, inactive: true });
  return true;
}

import * as vscode from 'vscode';
import { STEP_CONTEXT_KEYS, WALKTHROUGH_ID } from './walkthroughSteps.ts';
import type { WalkthroughStep } from './walkthroughSteps.ts';

// The getting-started walkthrough: opened once, the first time the extension runs (remembered in
// globalState, so never again after), and its steps tick as the user does each thing — whichever
// way they do it (a tree button, the palette, a link) — through context keys set here.

const SHOWN_KEY = 'controllerLab.walkthroughShown';

/** Marks a step done (its context key true; VS Code then keeps the step ticked). */
export function completeStep(step: WalkthroughStep): void {
  void vscode.commands.executeCommand('setContext', STEP_CONTEXT_KEYS[step], true);
}

/** Opens the walkthrough on the first run only. Returns whether it opened it. */
export function openWalkthroughOnFirstRun(context: vscode.ExtensionContext): boolean {
  // The integration tests' extension host is not a user's first run.
  if (context.extensionMode === vscode.ExtensionMode.Test) return false;
  if (context.globalState.get<boolean>(SHOWN_KEY)) return false;
  void context.globalState.update(SHOWN_KEY, true);
  // Never in the way: with a file in front, it opens as a tab behind it instead of taking its place.
  const inactive = vscode.window.activeTextEditor !== undefined;
  void vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, { toSide: false, inactive });
  return true;
}

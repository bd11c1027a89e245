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
  // Never in the way: `inactive` keeps the focus where the user is (a Quick Open being typed into, a
  // file in front stays in front); in an empty editor area the walkthrough is what shows.
  void vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, { toSide: false, inactive: true });
  return true;
}

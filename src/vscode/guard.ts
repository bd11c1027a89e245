import * as vscode from 'vscode';
import { describeFailure } from '../kube/index.ts';

// Every command and background task goes through here: a failure becomes one notification that
// says why (the failure's classification) and a line in the output channel, never an unhandled rejection.

export type Log = vscode.LogOutputChannel;

export function reportError(log: Log, err: unknown, what: string): void {
  const failure = describeFailure(err);
  log.error(`${what}: ${failure.message}`);
  if (err instanceof Error && err.stack) log.debug(err.stack);
  void vscode.window.showErrorMessage(`Controller Lab: ${what} — ${failure.message}`);
}

/** Registers a command whose errors are reported, not thrown into VS Code. */
export function registerGuarded(log: Log, id: string, fn: (...args: never[]) => unknown, what = id): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await (fn as (...a: unknown[]) => unknown)(...args);
    } catch (err) {
      if (err instanceof vscode.CancellationError) return undefined;
      reportError(log, err, what);
      return undefined;
    }
  });
}

/** Starts a promise nobody awaits, reporting its failure. */
export function background(log: Log, promise: Promise<unknown>, what: string): void {
  promise.then(undefined, (err: unknown) => reportError(log, err, what));
}

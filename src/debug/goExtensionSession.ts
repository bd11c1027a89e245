import * as vscode from 'vscode';
import { GO_DEBUGGER_UNAVAILABLE_REQUEST, GO_EXTENSION_ID, goChildConfiguration, resolveGoDebugger, type GoDebuggerHandOver } from './goChildSession.ts';

// VS Code side of `"goDebugger": "vscode-go"` (see goChildSession.ts): the launch configuration
// checks for the Go extension, and the adapter's hand-over becomes a child `go` session.

/** The configuration with `goDebugger` settled for this editor (the user is told when it falls back). */
export function withGoDebugger(config: vscode.DebugConfiguration): vscode.DebugConfiguration {
  const resolved = resolveGoDebugger(config, vscode.extensions.getExtension(GO_EXTENSION_ID) !== undefined);
  if (resolved.message) void vscode.window.showInformationMessage(resolved.message);
  return resolved.config;
}

/** Delve listens: the Go extension attaches as a child of the reconcile session, or the adapter attaches itself. */
export async function attachGoDebugger(session: vscode.DebugSession, handOver: GoDebuggerHandOver): Promise<void> {
  let ok = false;
  let reason = 'could not be started';
  try {
    ok = await vscode.debug.startDebugging(session.workspaceFolder, goChildConfiguration(handOver) as vscode.DebugConfiguration, {
      parentSession: session,
      lifecycleManagedByParent: true,
      compact: true,
    });
  } catch (err) {
    reason = `could not be started: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (ok) return;
  // The program waits, halted, for a debugger: the adapter's own Delve connection takes it.
  await Promise.resolve(session.customRequest(GO_DEBUGGER_UNAVAILABLE_REQUEST, { reason })).catch(() => {});
}

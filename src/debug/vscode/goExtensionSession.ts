import * as vscode from 'vscode';
import {
  GO_DEBUGGER_UNAVAILABLE_REQUEST,
  GO_EXTENSION_ID,
  GO_STEP_INTO_PLACED_REQUEST,
  GO_STEPPED_IN_REQUEST,
  goChildConfiguration,
  resolveGoDebugger,
  type GoDebuggerHandOver,
  type GoStepInto,
} from '../go/goChildSession.ts';

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

/** The Go extension's child session of each reconcile session (by the parent's id). */
const goChildren = new Map<string, vscode.DebugSession>();
/** Go sessions holding a Step Into breakpoint, until they stop. */
const oneShots = new Set<string>();

/** Follows the Go child sessions and their stops; dispose with the extension. */
export function followGoChildSessions(parentType: string): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.debug.onDidStartDebugSession((s) => {
      if (s.type === 'go' && s.parentSession?.type === parentType) goChildren.set(s.parentSession.id, s);
    }),
    vscode.debug.onDidTerminateDebugSession((s) => {
      for (const [parent, child] of goChildren) if (child.id === s.id || parent === s.id) goChildren.delete(parent);
      oneShots.delete(s.id);
    }),
    vscode.debug.registerDebugAdapterTrackerFactory('go', {
      createDebugAdapterTracker: (s) => ({
        onDidSendMessage: (m: { type?: string; event?: string }) => {
          if (m.type !== 'event' || m.event !== 'stopped' || !oneShots.delete(s.id)) return;
          // Stopped in Reconcile: the user's own function breakpoints (if any) replace the one-shot,
          // and the reconcile session stops at the next reconcile, as after a step.
          void Promise.resolve(s.customRequest('setFunctionBreakpoints', { breakpoints: userFunctionBreakpoints() })).catch(() => {});
          if (s.parentSession) void Promise.resolve(s.parentSession.customRequest(GO_STEPPED_IN_REQUEST)).catch(() => {});
        },
      }),
    }),
  );
}

/** Step Into at a reconcile stop: a one-shot breakpoint on Reconcile in the Go session; the adapter waits for the answer. */
export async function stepIntoGo(session: vscode.DebugSession, body: GoStepInto): Promise<void> {
  const child = goChildren.get(session.id);
  let placed = false;
  if (child) {
    try {
      const r = (await child.customRequest('setFunctionBreakpoints', { breakpoints: [{ name: body.function, condition: body.condition }] })) as { breakpoints?: { verified?: boolean }[] };
      placed = r.breakpoints?.[0]?.verified === true;
      if (placed) oneShots.add(child.id);
    } catch {
      placed = false;
    }
  }
  await Promise.resolve(session.customRequest(GO_STEP_INTO_PLACED_REQUEST, { placed })).catch(() => {});
}

function userFunctionBreakpoints(): { name: string; condition?: string; hitCondition?: string }[] {
  return vscode.debug.breakpoints
    .filter((b): b is vscode.FunctionBreakpoint => b instanceof vscode.FunctionBreakpoint && b.enabled)
    .map((b) => ({ name: b.functionName, condition: b.condition, hitCondition: b.hitCondition }));
}

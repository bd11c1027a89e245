import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { JS_DEBUGGER_UNAVAILABLE_REQUEST } from '../reconcileDebugSession.ts';

/** The adapter's request to debug the controller host's JavaScript: a child pwa-node attach session. */
export async function attachJsDebugger(session: vscode.DebugSession, body: { port: number; name?: string }, log: vscode.LogOutputChannel): Promise<void> {
  const folder = session.workspaceFolder?.uri.fsPath;
  let ok = false;
  let reason = 'could not be started';
  try {
    ok = await vscode.debug.startDebugging(
      session.workspaceFolder,
      {
        type: 'pwa-node',
        request: 'attach',
        name: body.name ?? 'Controller (JavaScript)',
        // The host's inspector listens on 127.0.0.1 only; "localhost" may resolve to ::1 first.
        address: '127.0.0.1',
        port: body.port,
        continueOnAttach: true,
        sourceMaps: true,
        // A checkout runs an esbuild bundle (inline source map) from the temp directory.
        resolveSourceMapLocations: [...(folder ? [`${folder}/**`] : []), `${join(tmpdir(), 'controller-lab-')}*/**`, '!**/node_modules/**'],
        skipFiles: ['<node_internals>/**'],
      },
      { parentSession: session, lifecycleManagedByParent: true, compact: true },
    );
  } catch (err) {
    reason = `could not be started: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (ok) {
    log.info(`debug session "${session.name}": the JavaScript debugger is attaching to port ${body.port}`);
    return;
  }
  log.warn(`debug session "${session.name}": the JavaScript debugger ${reason}`);
  // The controller process waits for this debugger: tell the adapter at once, which lets it run on.
  await Promise.resolve(session.customRequest(JS_DEBUGGER_UNAVAILABLE_REQUEST, { reason })).catch(() => {});
  void vscode.window.showWarningMessage('Controller Lab: could not attach the JavaScript debugger to the controller process; line breakpoints will not hit in this session.');
}

import * as vscode from 'vscode';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { ATTACH_JS_EVENT } from '../reconcileDebugSession.ts';

// A reconcile debug session's course in the Controller Lab log: when it started, where it stopped
// and why, what went wrong and how it ended. The Debug Console shows the same while the session
// lasts; the log keeps it afterwards, for "why did my session end without stopping?".

/** Output the log keeps: problems, not the running commentary of every reconcile. */
const KEPT_OUTPUT = new Set(['important', 'stderr']);

export function logDebugSessions(debugType: string, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.debug.registerDebugAdapterTrackerFactory(debugType, {
    createDebugAdapterTracker(session) {
      const name = `debug session "${session.name}"`;
      log.info(`${name} starting (${describe(session.configuration)})`);
      return {
        onDidSendMessage(message: DebugProtocol.ProtocolMessage) {
          if (message.type !== 'event') return;
          const event = message as DebugProtocol.Event;
          const body = (event.body ?? {}) as Record<string, unknown>;
          switch (event.event) {
            case 'output':
              if (KEPT_OUTPUT.has(String(body.category))) log.warn(`${name}: ${String(body.output).trimEnd()}`);
              break;
            case 'stopped':
              log.info(`${name} stopped: ${String(body.reason)}${body.description ? ` (${String(body.description)})` : ''}`);
              break;
            case 'exited':
              log.info(`${name}: the controller exited with code ${String(body.exitCode)}`);
              break;
            case 'terminated':
              log.info(`${name} ended`);
              break;
            case ATTACH_JS_EVENT:
              log.info(`${name}: the controller process waits for the JavaScript debugger on port ${String(body.port)}`);
              break;
          }
        },
        onError(error: Error) {
          log.error(`${name}: ${error.message}`);
        },
        onExit(code: number | undefined, signal: string | undefined) {
          if (code || signal) log.warn(`${name}: the debug adapter exited (${signal ?? `code ${code}`})`);
        },
      };
    },
  });
}

function describe(config: vscode.DebugConfiguration): string {
  const target = typeof config.program === 'string' ? config.program : typeof config.controller === 'string' ? config.controller : 'no controller';
  return [target, typeof config.cluster === 'string' ? `cluster ${config.cluster}` : undefined, config.attachJsDebugger ? 'line breakpoints' : undefined].filter(Boolean).join(', ');
}

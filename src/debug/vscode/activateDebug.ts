import * as vscode from 'vscode';
import { ATTACH_JS_EVENT } from '../reconcileDebugSession.ts';
import { AdapterDescriptorFactory } from './adapterDescriptorFactory.ts';
import { checkLaunchResolver } from './checkLaunch.ts';
import { attachJsDebugger } from './childJsDebugSession.ts';
import { addControllerTypes } from './controllerTypes.ts';
import { configurationProvider, dynamicProvider, viewClusterResolver, type ViewCluster } from './debugConfigurationProviders.ts';
import { debugController } from './debugControllerCommand.ts';
import { logDebugSessions } from './debugSessionLog.ts';
import { reportBuildErrors } from './buildErrors.ts';
import { DEBUG_TYPE } from './debugType.ts';
import { ATTACH_GO_EVENT, GO_STEP_INTO_EVENT, type GoDebuggerHandOver, type GoStepInto } from '../go/goChildSession.ts';
import { attachGoDebugger, followGoChildSessions, stepIntoGo } from './goExtensionSession.ts';

// VS Code glue for the reconcile debugger (vscode-mock-debug's activate layer), registration only:
// launch configurations (`"check": true` runs Check Controller instead), the adapter, the child JavaScript (and Go extension) debug sessions for line breakpoints,
// the sessions' course in the log, and the debugger's commands. Each piece lives in its own file.

export function activateDebug(context: vscode.ExtensionContext, viewCluster: ViewCluster, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, configurationProvider),
    // `"check": true` runs a check, not a session: before anything prepares a session's cluster.
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, checkLaunchResolver),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, viewClusterResolver(viewCluster)),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, dynamicProvider, vscode.DebugConfigurationProviderTriggerKind.Dynamic),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new AdapterDescriptorFactory(context.extensionUri)),
    vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
      if (e.session.type === DEBUG_TYPE && e.event === ATTACH_JS_EVENT) void attachJsDebugger(e.session, e.body as { port: number; name?: string }, log);
      if (e.session.type === DEBUG_TYPE && e.event === ATTACH_GO_EVENT) void attachGoDebugger(e.session, e.body as GoDebuggerHandOver);
      if (e.session.type === DEBUG_TYPE && e.event === GO_STEP_INTO_EVENT) void stepIntoGo(e.session, e.body as GoStepInto);
    }),
    followGoChildSessions(DEBUG_TYPE),
    logDebugSessions(DEBUG_TYPE, log),
    reportBuildErrors(DEBUG_TYPE),
    vscode.commands.registerCommand('controllerLab.addControllerTypes', (arg?: unknown) => addControllerTypes(context.extensionUri, arg)),
    vscode.commands.registerCommand('controllerLab.debugController', (uri?: vscode.Uri) => debugController(uri)),
  );
}

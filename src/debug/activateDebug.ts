import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import * as vscode from 'vscode';
import { ATTACH_JS_EVENT, JS_DEBUGGER_UNAVAILABLE_REQUEST } from './reconcileDebugSession.ts';
import { GoReconcileDebugSession } from './goReconcileDebugSession.ts';
import { addControllerTypes } from './controllerTypes.ts';
import { runControllerInTerminal } from '../vscode/controllers/runInTerminal.ts';

// VS Code glue for the reconcile debugger (vscode-mock-debug's activate layer): launch configuration
// defaults, the adapter (inline in the extension host, or dist/debugAdapter.cjs as a process), the
// child JavaScript debug session for line breakpoints, workspace trust, and two commands.

export const DEBUG_TYPE = 'controller-lab';

const TRUST_MESSAGE =
  'Controller Lab runs your controller only in a trusted workspace: its code executes on this machine. Trust the workspace to debug or run it.';

function isTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

async function explainUntrusted(): Promise<void> {
  const choice = await vscode.window.showErrorMessage(TRUST_MESSAGE, 'Manage Workspace Trust');
  if (choice) await vscode.commands.executeCommand('workbench.trust.manage');
}

function isControllerEditor(editor: vscode.TextEditor | undefined): editor is vscode.TextEditor {
  return !!editor && ['typescript', 'javascript', 'go'].includes(editor.document.languageId);
}

/** A Go file is debugged as its package (`program`); a TypeScript/JavaScript file as `controller`. */
function launchTarget(file: string): { controller: string } | { program: string } {
  return file.endsWith('.go') ? { program: file } : { controller: file };
}

/** The simulated cluster the Controller Lab view runs: started if need be, seeded with `scenario`; its kubeconfig path. */
export type ViewCluster = (scenario: string | undefined) => Promise<string>;

/**
 * `"cluster": "view"`: debug against the view's simulated cluster (its objects in the tree, its
 * events on the timeline) rather than one of the session's own. Runs after variable substitution,
 * so `scenario` is a real path; the scenario goes to that cluster, and the adapter gets its kubeconfig.
 */
function viewClusterResolver(viewCluster: ViewCluster): vscode.DebugConfigurationProvider {
  return {
    async resolveDebugConfigurationWithSubstitutedVariables(folder, config) {
      if (config.cluster !== 'view') return config;
      const cwd = typeof config.cwd === 'string' ? config.cwd : (folder?.uri.fsPath ?? '');
      const scenario = typeof config.scenario === 'string' && config.scenario ? resolvePath(cwd, config.scenario) : undefined;
      try {
        const kubeconfig = await viewCluster(scenario);
        const { scenario: _loaded, ...rest } = config;
        return { ...rest, cluster: { kubeconfig } } as vscode.DebugConfiguration;
      } catch (err) {
        await vscode.window.showErrorMessage(`Controller Lab: the view's simulated cluster is not available: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    },
  };
}

const configurationProvider: vscode.DebugConfigurationProvider = {
  provideDebugConfigurations(folder) {
    const editor = vscode.window.activeTextEditor;
    const controller = isControllerEditor(editor) && folder ? '${file}' : '${workspaceFolder}/controller.ts';
    return [{ type: DEBUG_TYPE, request: 'launch', name: 'Debug controller (simulated cluster)', controller, cluster: 'sim', stopOnEntry: true }];
  },

  async resolveDebugConfiguration(folder, config) {
    if (!isTrusted()) {
      await explainUntrusted();
      return undefined;
    }
    // F5 with no launch.json: debug the controller in the active editor on a simulated cluster.
    if (!config.type && !config.request && !config.name) {
      const editor = vscode.window.activeTextEditor;
      if (!isControllerEditor(editor)) {
        await vscode.window.showInformationMessage('Open your controller file (TypeScript, JavaScript, or a Go main.go that calls controllerlab.Wrap) to debug it with Controller Lab.');
        return undefined;
      }
      Object.assign(config, { type: DEBUG_TYPE, request: 'launch', name: 'Debug controller', ...launchTarget(editor.document.uri.fsPath), cluster: 'sim', stopOnEntry: true });
    }
    if (!config.controller && !config.program) {
      await vscode.window.showErrorMessage('Controller Lab: set "controller" to your controller file (or "program" to your Go main package) in the launch configuration.');
      return undefined;
    }
    config.cluster ??= 'sim';
    config.cwd ??= folder?.uri.fsPath;
    return config;
  },
};

/** Dynamic configurations: one per controller file found in the workspace (imports 'controller-lab', or a Go main calling controllerlab.Wrap). */
const dynamicProvider: vscode.DebugConfigurationProvider = {
  async provideDebugConfigurations(folder) {
    const root = folder ?? vscode.workspace.workspaceFolders?.[0];
    if (!root) return [];
    const files = await vscode.workspace.findFiles(new vscode.RelativePattern(root, '**/*.{ts,mts,js,mjs}'), '**/{node_modules,dist,out}/**', 300);
    const configs: vscode.DebugConfiguration[] = [];
    for (const file of files) {
      if (configs.length >= 10) break;
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      if (!/from\s+['"]controller-lab['"]/.test(text) || !/defineController\s*\(/.test(text)) continue;
      const scenario = vscode.Uri.joinPath(file, '..', 'scenario.yaml');
      const hasScenario = await exists(scenario);
      configs.push({
        type: DEBUG_TYPE,
        request: 'launch',
        name: `Debug ${vscode.workspace.asRelativePath(file, false)} (simulated cluster)`,
        controller: file.fsPath,
        cluster: 'sim',
        stopOnEntry: true,
        ...(hasScenario ? { scenario: scenario.fsPath } : {}),
      });
    }
    // Go programs that call controllerlab.Wrap: one configuration per main package.
    const goFiles = await vscode.workspace.findFiles(new vscode.RelativePattern(root, '**/*.go'), '**/{vendor,testdata}/**', 300);
    for (const file of goFiles) {
      if (configs.length >= 10) break;
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      if (!/^package main\b/m.test(text) || !/controllerlab\.Wrap\s*\(/.test(text)) continue;
      const dir = vscode.Uri.joinPath(file, '..');
      const scenario = vscode.Uri.joinPath(dir, 'scenario.yaml');
      const hasScenario = await exists(scenario);
      configs.push({
        type: DEBUG_TYPE,
        request: 'launch',
        name: `Debug ${vscode.workspace.asRelativePath(dir, false)} (Go, simulated cluster)`,
        program: dir.fsPath,
        cluster: 'sim',
        stopOnEntry: true,
        ...(hasScenario ? { scenario: scenario.fsPath } : {}),
      });
    }
    return configs;
  },
};

class AdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  private readonly extensionUri: vscode.Uri;
  constructor(extensionUri: vscode.Uri) {
    this.extensionUri = extensionUri;
  }
  createDebugAdapterDescriptor(session: vscode.DebugSession): vscode.ProviderResult<vscode.DebugAdapterDescriptor> {
    if (session.configuration.debugAdapter === 'process') {
      const adapter = vscode.Uri.joinPath(this.extensionUri, 'dist', 'debugAdapter.cjs').fsPath;
      return new vscode.DebugAdapterExecutable(process.execPath, [adapter], { env: { ELECTRON_RUN_AS_NODE: '1' } });
    }
    // Inline: the controller's runtime events reach the views in this same process.
    return new vscode.DebugAdapterInlineImplementation(new GoReconcileDebugSession() as unknown as vscode.DebugAdapter);
  }
}

/** The adapter's request to debug the controller host's JavaScript: a child pwa-node attach session. */
async function attachJsDebugger(session: vscode.DebugSession, body: { port: number; name?: string }): Promise<void> {
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
  if (ok) return;
  // The controller process waits for this debugger: tell the adapter at once, which lets it run on.
  await Promise.resolve(session.customRequest(JS_DEBUGGER_UNAVAILABLE_REQUEST, { reason })).catch(() => {});
  void vscode.window.showWarningMessage('Controller Lab: could not attach the JavaScript debugger to the controller process; line breakpoints will not hit in this session.');
}

/** Debugs the controller in the editor (or the given file) on a simulated cluster, stopping at the first reconcile. */
async function debugController(uri?: vscode.Uri): Promise<void> {
  if (!isTrusted()) return explainUntrusted();
  const file = uri?.fsPath ?? (isControllerEditor(vscode.window.activeTextEditor) ? vscode.window.activeTextEditor.document.uri.fsPath : undefined);
  if (!file) {
    void vscode.window.showInformationMessage('Open your controller file to debug it with Controller Lab.');
    return;
  }
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file));
  // A scenario next to the controller seeds the simulated cluster (the examples' layout).
  const scenario = vscode.Uri.joinPath(vscode.Uri.file(file), '..', 'scenario.yaml');
  const hasScenario = await vscode.workspace.fs.stat(scenario).then(
    () => true,
    () => false,
  );
  await vscode.debug.startDebugging(folder, {
    type: DEBUG_TYPE,
    request: 'launch',
    name: 'Debug controller',
    ...launchTarget(file),
    cluster: 'sim',
    stopOnEntry: true,
    ...(hasScenario ? { scenario: scenario.fsPath } : {}),
  });
}

/** Runs the controller in this extension host (so the Controllers tree and the timeline follow it), its output in a terminal. */
async function runController(uri?: vscode.Uri): Promise<void> {
  if (!isTrusted()) return explainUntrusted();
  const file = uri?.fsPath ?? (isControllerEditor(vscode.window.activeTextEditor) ? vscode.window.activeTextEditor.document.uri.fsPath : undefined);
  if (!file) {
    void vscode.window.showInformationMessage('Open your controller file to run it with Controller Lab.');
    return;
  }
  // A scenario next to the controller seeds the simulated cluster (the examples' layout).
  const scenario = vscode.Uri.joinPath(vscode.Uri.file(file), '..', 'scenario.yaml');
  const hasScenario = await vscode.workspace.fs.stat(scenario).then(
    () => true,
    () => false,
  );
  const { terminal } = runControllerInTerminal({
    file,
    scenario: hasScenario ? scenario.fsPath : undefined,
    cwd: vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))?.uri.fsPath,
  });
  terminal.show();
}

export function activateDebug(context: vscode.ExtensionContext, viewCluster: ViewCluster): void {
  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, configurationProvider),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, viewClusterResolver(viewCluster)),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, dynamicProvider, vscode.DebugConfigurationProviderTriggerKind.Dynamic),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new AdapterFactory(context.extensionUri)),
    vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
      if (e.session.type === DEBUG_TYPE && e.event === ATTACH_JS_EVENT) void attachJsDebugger(e.session, e.body as { port: number; name?: string });
    }),
    vscode.commands.registerCommand('controllerLab.addControllerTypes', () => addControllerTypes(context.extensionUri)),
    vscode.commands.registerCommand('controllerLab.debugController', (uri?: vscode.Uri) => debugController(uri)),
    vscode.commands.registerCommand('controllerLab.runController', (uri?: vscode.Uri) => runController(uri)),
  );
}

function exists(uri: vscode.Uri): Thenable<boolean> {
  return vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );
}

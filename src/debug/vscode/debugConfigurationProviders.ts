import { resolve as resolvePath } from 'node:path';
import * as vscode from 'vscode';
import { explainUntrusted, isTrusted } from '../../vscode/workspaceTrust.ts';
import { exists, isControllerEditor } from '../../vscode/controllers/controllerFiles.ts';
import { chooseController } from '../../vscode/controllers/chooseController.ts';
import { DEBUG_TYPE, launchTarget } from './debugType.ts';
import { withGoDebugger } from './goExtensionSession.ts';

// Launch configurations for the reconcile debugger: the defaults (F5 with no launch.json), one per
// controller found in the workspace, and `"cluster": "view"` resolved to the view's cluster.

/** The simulated cluster the Controller Lab view runs: started if need be, seeded with `scenario`; its kubeconfig path. */
export type ViewCluster = (scenario: string | undefined) => Promise<string>;

/**
 * `"cluster": "view"`: debug against the view's simulated cluster (its objects in the tree, its
 * events on the timeline) rather than one of the session's own. Runs after variable substitution,
 * so `scenario` is a real path; the scenario goes to that cluster, and the adapter gets its kubeconfig.
 */
export function viewClusterResolver(viewCluster: ViewCluster): vscode.DebugConfigurationProvider {
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

export const configurationProvider: vscode.DebugConfigurationProvider = {
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
      // A Go file runs as its module's program (internal/controller is no main package).
      const target = editor.document.languageId === 'go' ? await chooseController(editor.document.uri, 'debug') : launchTarget(editor.document.uri.fsPath);
      if (!target) return undefined;
      Object.assign(config, { type: DEBUG_TYPE, request: 'launch', name: 'Debug controller', ...target, cluster: 'sim', stopOnEntry: true });
    }
    if (!config.controller && !config.program) {
      await vscode.window.showErrorMessage('Controller Lab: set "controller" to your controller file (or "program" to your Go main package) in the launch configuration.');
      return undefined;
    }
    config.cluster ??= 'sim';
    config.cwd ??= folder?.uri.fsPath;
    config.maxHeapMb ??= vscode.workspace.getConfiguration('controllerLab').get<number>('controller.maxHeapMb');
    return withGoDebugger(config);
  },
};

/** Dynamic configurations: one per controller file found in the workspace (imports 'controller-lab', or a Go main calling controllerlab.Wrap). */
export const dynamicProvider: vscode.DebugConfigurationProvider = {
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

import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { readScenarioFile } from '../../sim/index.ts';
import { connectPickerText, listKubeconfigContexts } from '../backends/kubeconfigContexts.ts';
import type { Connections } from '../connections.ts';
import type { ConnectTarget } from '../model/lab.ts';
import type { LabServices } from '../services.ts';
import { nodeIds } from '../tree/treeNodes.ts';
import { background, registerGuarded } from '../guard.ts';
import { revealQuietly } from './informerCommands.ts';
import { pickScenario } from './pickScenario.ts';
import { reportScenario } from './scenarioFeedback.ts';
import { completeStep } from '../walkthrough.ts';

/** The feedback of the scenario loaded last: resolves with its "finished" message (tests wait on it). */
export let lastScenario: Promise<string> | undefined;

// Connecting, disconnecting, and driving the simulated cluster (scenarios, its kubeconfig).

interface ContextPick extends vscode.QuickPickItem {
  target: ConnectTarget;
  /** A kubeconfig that could not be read: picking its row opens it. */
  problemFile?: string;
}

export function registerClusterCommands(services: LabServices, connections: Connections): vscode.Disposable[] {
  const { log, lab, settings } = services;

  const reveal = (clusterId: string) =>
    revealQuietly(services, services.tree.model.nodes.lookup(nodeIds.cluster(clusterId)) ?? services.tree.model.roots().find((n) => n.id === nodeIds.cluster(clusterId)));

  return [
    registerGuarded(log, 'controllerLab.startSimulatedCluster', async () => {
      const session = await connections.ensureSim();
      await reveal(session.id);
      return session.id;
    }, 'Start simulated cluster'),

    registerGuarded(log, 'controllerLab.resetSimulatedCluster', async (arg: unknown) => {
      // Tests pass { confirmed: true }; people answer the modal.
      const confirmed = typeof arg === 'object' && arg !== null && (arg as { confirmed?: unknown }).confirmed === true;
      if (!confirmed) {
        const choice = await vscode.window.showWarningMessage(
          'Reset the simulated cluster?',
          { modal: true, detail: 'Every object in it is deleted and a new cluster starts (with the sample objects, if that setting is on). Clients must re-list.' },
          'Reset',
        );
        if (choice !== 'Reset') return undefined;
      }
      const session = await connections.resetSim();
      await reveal(session.id);
      return session.id;
    }, 'Reset simulated cluster'),

    registerGuarded(log, 'controllerLab.connect', async (arg: unknown) => {
      // An explicit target (tests, walkthrough links): { kind, context?, kubeconfig? }.
      let picked: ContextPick | undefined;
      if (typeof arg === 'object' && arg !== null && ((arg as ConnectTarget).kind === 'sim' || (arg as ConnectTarget).kind === 'kubeconfig')) {
        const t = arg as ConnectTarget;
        picked = { label: t.kind === 'sim' ? 'Simulated cluster' : t.context || 'current context', target: t };
      } else {
        const kubeconfig = settings.kubeconfig;
        const { contexts, problems } = listKubeconfigContexts(kubeconfig);
        const { placeHolder, problemRows } = connectPickerText({ contexts, problems });
        const items: ContextPick[] = [
          { label: '$(beaker) Simulated cluster', description: 'in VS Code, on 127.0.0.1 — no setup', target: { kind: 'sim' } },
          ...(contexts.length ? [{ label: 'kubeconfig contexts', kind: vscode.QuickPickItemKind.Separator, target: { kind: 'sim' as const } }] : []),
          ...contexts.map((c) => ({
            label: `$(server-environment) ${c.name}`,
            description: `${c.cluster}${c.namespace ? ` · ${c.namespace}` : ''}${c.current ? ' · current' : ''}`,
            detail: c.file,
            target: { kind: 'kubeconfig' as const, context: c.name, ...(kubeconfig ? { kubeconfig } : {}) },
          })),
          ...(problemRows.length ? [{ label: 'kubeconfig problems', kind: vscode.QuickPickItemKind.Separator, target: { kind: 'sim' as const } }] : []),
          ...problemRows.map((r) => ({ label: r.label, description: r.description, detail: r.detail, problemFile: r.file, target: { kind: 'sim' as const } })),
        ];
        for (const p of problems) log.warn(`kubeconfig: ${p}`);
        picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
      }
      if (!picked) return undefined;
      if (picked.problemFile) {
        // The file where it is, else the setting that names it.
        const file = vscode.Uri.file(picked.problemFile);
        await vscode.workspace.fs.stat(file).then(
          () => vscode.window.showTextDocument(file),
          () => vscode.commands.executeCommand('workbench.action.openSettings', 'controllerLab.kubeconfig'),
        );
        return undefined;
      }
      const label = picked.target.kind === 'sim' ? 'Simulated cluster' : picked.target.context ?? 'current context';
      // A failure stays on the tree as an error row; the guard's notification says why.
      const session = await connections.connect(picked.target, label);
      await reveal(session.id);
      return session.id;
    }, 'Connect'),

    registerGuarded(log, 'controllerLab.disconnect', async (arg: unknown) => {
      const id = typeof arg === 'object' && arg !== null && typeof (arg as { clusterId?: unknown }).clusterId === 'string'
        ? (arg as { clusterId: string }).clusterId
        : services.treeView.selection.find((n) => 'clusterId' in n)?.clusterId;
      const target = id ?? [...lab.clusters.keys()][0];
      if (target) await lab.disconnect(target);
    }, 'Disconnect'),

    registerGuarded(log, 'controllerLab.loadScenario', async (arg: unknown) => {
      let uri = arg instanceof vscode.Uri ? arg : undefined;
      if (!uri) {
        const choice = await pickScenario();
        if (choice === 'cancelled') return undefined;
        uri = choice;
      }
      if (!uri) {
        const picked = await vscode.window.showOpenDialog({
          canSelectMany: false,
          openLabel: 'Load Scenario',
          filters: { 'Scenario (YAML)': ['yaml', 'yml'] },
          title: 'Load a scenario into the simulated cluster',
        });
        uri = picked?.[0];
      }
      if (!uri) return undefined;
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const text = open ? open.getText() : uri.scheme === 'file' ? await readScenarioFile(uri.fsPath) : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const session = await connections.ensureSim();
      const sim = session.backend?.sim;
      if (!sim) throw new Error('the simulated cluster is not running');
      const fileName = uri.path.split('/').pop() ?? 'scenario.yaml';
      // Parse and validation errors throw here, naming line and field.
      const run = sim.loadScenario(text, { fileName, ...(uri.scheme === 'file' ? { baseDir: dirname(uri.fsPath) } : {}) });
      completeStep('scenario');
      lastScenario = reportScenario(run, fileName, log);
      background(log, lastScenario, `Scenario ${fileName}`);
      return fileName;
    }, 'Load scenario'),

    registerGuarded(log, 'controllerLab.copySimKubeconfigPath', async () => {
      const session = await connections.ensureSim();
      const path = session.backend?.kubeconfigPath;
      if (!path) throw new Error('the simulated cluster has no kubeconfig');
      await vscode.env.clipboard.writeText(path);
      void vscode.window.showInformationMessage(`Controller Lab: copied the simulated cluster's kubeconfig path. Try: kubectl --kubeconfig ${path} get configmaps -A`);
      return path;
    }, 'Copy kubeconfig path'),

    registerGuarded(log, 'controllerLab.refresh', () => services.tree.refresh(), 'Refresh'),
    registerGuarded(log, 'controllerLab.showMore', (node: unknown) => services.tree.showMore(node as never), 'Show more'),
  ];
}

import * as vscode from 'vscode';
import { activateDebug } from './debug/vscode/activateDebug.ts';
import { realClock } from './shared/clock.ts';
import { createKubeconfigBackend } from './vscode/backends/kubeconfigBackend.ts';
import { createSimBackend } from './vscode/backends/simBackend.ts';
import { lastScenario, registerClusterCommands } from './vscode/commands/clusterCommands.ts';
import { registerGoProjectCommands } from './vscode/commands/goProjectCommands.ts';
import { background, registerGuarded } from './vscode/guard.ts';
import { registerInformerCommands } from './vscode/commands/informerCommands.ts';
import { registerObjectCommands } from './vscode/commands/objectCommands.ts';
import { registerWhyCommands } from './vscode/commands/whyCommands.ts';
import { Connections } from './vscode/connections.ts';
import { attachControllers } from './vscode/controllers/controllersView.ts';
import { runController } from './vscode/controllers/runControllerCommand.ts';
import { ObjectDocumentProvider } from './vscode/documents/objectDocumentProvider.ts';
import { DescribeProvider } from './vscode/documents/describeProvider.ts';
import { EditFileSystem } from './vscode/documents/editFileSystem.ts';
import { registerObjectActions } from './vscode/commands/objectActions.ts';
import { Lab } from './vscode/model/lab.ts';
import type { LabServices } from './vscode/services.ts';
import { Settings } from './vscode/settings.ts';
import { LabStatusBar } from './vscode/statusBar.ts';
import { TimelinePanel } from './vscode/timeline/timelinePanel.ts';
import { ClusterTreeProvider } from './vscode/tree/clusterTreeProvider.ts';
import { ExpansionMemory } from './vscode/tree/expansionMemory.ts';
import { startHostDiagnostics } from './vscode/hostDiagnostics.ts';
import { offerBundledCli } from './vscode/bundledCli.ts';
import type { TreeNode } from './vscode/tree/treeNodes.ts';
import { completeStep, openWalkthroughOnFirstRun } from './vscode/walkthrough.ts';
import { controllerSessions } from './runtime/index.ts';
import { registerCheckView } from './vscode/checkFindings/checkView.ts';
import type { FindingsTreeProvider } from './vscode/checkFindings/findingsTreeProvider.ts';

// Activation builds the services and registers every contribution; each disposable goes into the
// extension context so deactivation releases it. Nothing connects until the Controller Lab view
// is shown (or a command needs a cluster): activation itself never fails for want of a kubeconfig.

/** What `activate` returns: the integration tests (and other extensions) drive the lab through it. */
export interface ControllerLabApi {
  readonly services: LabServices;
  readonly statusBar: LabStatusBar;
  /** How long `activate` took (ms), for the activation-time report. */
  readonly activationMs: number;
  /** Resolves once the first automatic connection attempt (when the view was shown) settled. */
  whenAutoConnected(): Promise<void>;
  timelinePanel(): TimelinePanel | undefined;
  /** Edit documents: `saves` counts the saves applied to the cluster. */
  readonly editFileSystem: { readonly saves: number };
  /** Resolves once integrated terminals get the bundled controller-lab command. */
  whenCliOffered(): Promise<string | undefined>;
  /** The last loaded scenario's feedback: resolves with the "finished" message shown. */
  lastScenario(): Promise<string> | undefined;
  /** The Check Findings view's rows. */
  readonly checkFindings: FindingsTreeProvider;
}

let lab: Lab | undefined;

export function activate(context: vscode.ExtensionContext): ControllerLabApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Controller Lab', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push({ dispose: startHostDiagnostics() });
  const settings = new Settings();
  context.subscriptions.push(settings);

  const kubeconfigOut = vscode.Uri.joinPath(context.globalStorageUri, 'sim', 'kubeconfig').fsPath;
  // The view's simulated cluster keeps its objects across reloads, per workspace.
  const simStateDir = vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'sim-state').fsPath;
  lab = new Lab({
    clock: realClock,
    maxTimelineEvents: settings.maxTimelineEvents,
    informerPolicy: () => ({ keepManagedFields: settings.keepManagedFields, maxObjects: settings.maxInformerObjects }),
    warn: (message) => void vscode.window.showWarningMessage(message),
    createBackend: (target) =>
      target.kind === 'sim'
        ? createSimBackend({ kubeconfigOut, sampleObjects: settings.simSampleObjects, ...(settings.simKeepState ? { stateDir: simStateDir } : {}) })
        : createKubeconfigBackend(target),
  });
  const theLab = lab;

  const tree = new ClusterTreeProvider(theLab);
  context.subscriptions.push(tree);
  const treeView = vscode.window.createTreeView<TreeNode>('controllerLab.clusters', { treeDataProvider: tree, showCollapseAll: true });
  context.subscriptions.push(treeView);
  // VS Code's own onView event is missed when the view was already showing as the walkthrough
  // registered (a window that opens with it, a click during start-up): the view says so itself.
  if (treeView.visible) completeStep('viewOpened');
  context.subscriptions.push(treeView.onDidChangeVisibility((e) => e.visible && completeStep('viewOpened')));
  const expansion = new ExpansionMemory(context.workspaceState);
  tree.model.expansion = expansion;
  tree.trackExpansion(treeView, undefined, expansion);
  // Running controllers (run or debug): their informers and workqueue in the tree, reconciles on the timeline.
  context.subscriptions.push(
    attachControllers(tree, theLab.timeline, undefined, () => [...theLab.clusters.values()].flatMap((c) => (c.server ? [c.server] : []))),
    vscode.commands.registerCommand('controllerLab.runController', (uri?: vscode.Uri) => runController(uri)),
  );

  // The bundled controller-lab command in integrated terminals (and for simtest).
  const cliOffered = offerBundledCli(context, log);

  const connections = new Connections(theLab, settings, log);
  connections.simStateDir = simStateDir;
  const services: LabServices = {
    lab: theLab,
    settings,
    log,
    tree,
    treeView,
    extensionUri: context.extensionUri,
    ensureConnected: () => connections.ensureConnected(),
    ensureSim: () => connections.ensureSim(),
  };

  context.subscriptions.push(new ObjectDocumentProvider(theLab, settings));
  const editFs = new EditFileSystem(theLab, settings);
  context.subscriptions.push(editFs, new DescribeProvider(theLab));
  const statusBar = new LabStatusBar(theLab);
  context.subscriptions.push(statusBar);
  context.subscriptions.push(
    ...registerClusterCommands(services, connections),
    ...registerInformerCommands(services, connections),
    ...registerObjectCommands(services),
    ...registerWhyCommands(services),
    ...registerObjectActions(services),
    ...registerGoProjectCommands(services, () => cliOffered),
    registerGuarded(log, 'controllerLab.openSettings', () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:controller-lab.controller-lab'), 'Open settings'),
  );

  // Check Controller and the Check Findings view.
  const checkView = registerCheckView(log);
  context.subscriptions.push(checkView);

  // The reconcile debugger's glue: launch configurations, the adapter, its commands.
  try {
    activateDebug(context, async (scenario) => {
      const session = await connections.ensureSim();
      const path = session.backend?.kubeconfigPath;
      if (!path) throw new Error('the simulated cluster has no kubeconfig');
      if (scenario && !(await vscode.commands.executeCommand<string | undefined>('controllerLab.loadScenario', vscode.Uri.file(scenario)))) {
        throw new Error(`scenario ${scenario} could not be loaded (the Controller Lab output says why)`);
      }
      return path;
    }, log);
  } catch (err) {
    log.error(`debugger setup failed: ${err instanceof Error ? err.message : String(err)}`);
  }

  // Context keys for menus: palette entries that need a cluster or an informer stay hidden until then.
  const updateContext = () => {
    void vscode.commands.executeCommand('setContext', 'controllerLab.connected', [...theLab.clusters.values()].some((c) => c.phase === 'connected'));
    void vscode.commands.executeCommand('setContext', 'controllerLab.hasInformers', [...theLab.informers()].length > 0);
  };
  context.subscriptions.push({ dispose: theLab.onDidChange((change) => void (change.kind !== 'informer' && updateContext())) });

  // Zero setup: the first time the view is shown, connect to the configured cluster (the sim by default).
  let autoConnect: Promise<void> | undefined;
  const connectOnce = () => {
    autoConnect ??= connections.ensureConnected().then(
      () => undefined,
      (err: unknown) => {
        // Shown once here, with the way out; the tree keeps the error row.
        log.error(`auto-connect: ${err instanceof Error ? err.message : String(err)}`);
        void vscode.window
          .showErrorMessage(`Controller Lab: could not connect to ${settings.cluster} — ${err instanceof Error ? err.message : String(err)}`, 'Use Simulated Cluster', 'Connect to Cluster…')
          .then((choice) => {
            if (choice === 'Use Simulated Cluster') void vscode.commands.executeCommand('controllerLab.startSimulatedCluster');
            else if (choice === 'Connect to Cluster…') void vscode.commands.executeCommand('controllerLab.connect');
          });
      },
    );
    return autoConnect;
  };
  // Both signals, as either may come first: VS Code asking for the roots, and the view becoming visible.
  tree.onRootsRequested = () => void connectOnce();
  if (treeView.visible) void connectOnce();
  context.subscriptions.push(treeView.onDidChangeVisibility((e) => void (e.visible && connectOnce())));

  context.subscriptions.push(
    settings.onDidChange((key) => {
      if (key === 'cluster' || key === 'kubeconfig') background(log, connections.reconnectFromSettings(), 'Connect');
      if (key === 'timeline.maxEvents') theLab.timeline.events.resize(settings.maxTimelineEvents);
    }),
  );

  // First run: the walkthrough opens once. Its steps tick on what the user actually did.
  openWalkthroughOnFirstRun(context);
  context.subscriptions.push({ dispose: controllerSessions.onDidStart(() => completeStep('controller')) });

  const activationMs = performance.now() - started;
  log.info(`Controller Lab activated in ${activationMs.toFixed(0)} ms`);
  return {
    services,
    statusBar,
    activationMs,
    whenAutoConnected: () => connectOnce(),
    whenCliOffered: () => cliOffered,
    timelinePanel: () => TimelinePanel.current,
    lastScenario: () => lastScenario,
    editFileSystem: editFs,
    checkFindings: checkView.provider,
  };
}

export async function deactivate(): Promise<void> {
  TimelinePanel.current?.dispose();
  const current = lab;
  lab = undefined;
  await current?.dispose();
}

import * as vscode from 'vscode';
import type { KubeList } from '../../shared/k8s.ts';
import type { ApiResource } from '../../shared/k8s.ts';
import type { Connections } from '../connections.ts';
import type { ClusterSession } from '../model/clusterSession.ts';
import { qualifiedResource } from '../../shared/k8s.ts';
import type { LabServices } from '../services.ts';
import type { TreeNode } from '../tree/treeNodes.ts';
import { registerGuarded } from '../guard.ts';
import { informerIdOf } from './objectTarget.ts';
import { completeStep } from '../walkthrough.ts';

// Starting and stopping informers. "Watch Resource…" asks three questions — which resource (from
// discovery, CRDs included), which namespace, which label selector — then lists and watches.

export interface WatchRequestArg {
  resource: string;
  namespace?: string;
  labelSelector?: string;
  clusterId?: string;
}

function isWatchRequest(arg: unknown): arg is WatchRequestArg {
  return typeof arg === 'object' && arg !== null && typeof (arg as WatchRequestArg).resource === 'string';
}

async function pickCluster(services: LabServices, connections: Connections, clusterId?: string): Promise<ClusterSession | undefined> {
  if (clusterId) return services.lab.clusters.get(clusterId);
  const connected = [...services.lab.clusters.values()].filter((c) => c.phase === 'connected');
  const fromSelection = services.treeView.selection.find((n) => 'clusterId' in n);
  if (fromSelection && 'clusterId' in fromSelection) {
    const c = services.lab.clusters.get(fromSelection.clusterId);
    if (c?.phase === 'connected') return c;
  }
  if (connected.length === 0) return connections.ensureConnected();
  if (connected.length === 1) return connected[0];
  const picked = await vscode.window.showQuickPick(
    connected.map((c) => ({ label: c.label, description: c.server, session: c })),
    { placeHolder: 'Watch a resource on which cluster?' },
  );
  return picked?.session;
}

/** Always shown last: what to do when the resource you type is not served (a CRD not installed yet). */
const NOT_LISTED = {
  label: '$(info) Not listed? A custom resource is served once its CRD is installed',
  detail: 'Load Scenario… including config/crd/bases, or kubectl apply -f your CRDs',
  alwaysShow: true,
  resource: undefined,
};

async function pickResource(session: ClusterSession): Promise<ApiResource | undefined> {
  const discovery = await session.backend!.cluster.discover({ refresh: true });
  const watchable = discovery.resources.filter((r) => r.verbs.includes('list') && r.verbs.includes('watch'));
  const items = watchable.map((r) => ({
    label: qualifiedResource(r),
    description: `${r.group ? `${r.group}/` : ''}${r.version} · ${r.kind}${r.namespaced ? '' : ' · cluster-scoped'}`,
    detail: r.shortNames.length ? `short names: ${r.shortNames.join(', ')}` : undefined,
    resource: r as ApiResource | undefined,
  }));
  const picked = await vscode.window.showQuickPick([...items, NOT_LISTED], { placeHolder: 'Watch which resource? (custom resources included)', matchOnDescription: true, matchOnDetail: true });
  if (picked === NOT_LISTED) void vscode.commands.executeCommand('controllerLab.loadScenario');
  return picked?.resource;
}

async function pickNamespace(session: ClusterSession, resource: ApiResource): Promise<string | undefined> {
  if (!resource.namespaced) return '';
  let namespaces: string[] = [];
  try {
    const list = await session.backend!.cluster.request<KubeList>('/api/v1/namespaces');
    namespaces = list.items.map((n) => n.metadata.name ?? '').filter(Boolean).sort();
  } catch {
    // Listing namespaces may be forbidden; all namespaces or a typed name still work.
  }
  const ENTER = '$(edit) Enter a namespace…';
  const picked = await vscode.window.showQuickPick(
    [{ label: '$(globe) All namespaces', value: '' }, ...namespaces.map((n) => ({ label: n, value: n })), { label: ENTER, value: ENTER }],
    { placeHolder: `Watch ${qualifiedResource(resource)} in which namespace?` },
  );
  if (!picked) return undefined;
  if (picked.value !== ENTER) return picked.value;
  return vscode.window.showInputBox({ prompt: 'Namespace', validateInput: (v) => (/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(v) ? undefined : 'not a valid namespace name') });
}

/** Shows a row in the tree if the view is open. Cosmetic: a reveal that fails is not the command failing. */
export async function revealQuietly(services: LabServices, node: TreeNode | undefined, expand = true): Promise<void> {
  if (!node || !services.treeView.visible) return;
  services.tree.flush(); // let VS Code learn about new rows before it looks for this one
  try {
    await services.treeView.reveal(node, { select: true, focus: false, expand });
  } catch (err) {
    services.log.debug(`reveal ${node.id}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function registerInformerCommands(services: LabServices, connections: Connections): vscode.Disposable[] {
  const { log, lab } = services;
  return [
    registerGuarded(log, 'controllerLab.watchResource', async (arg: unknown) => {
      const explicit = isWatchRequest(arg) ? arg : undefined;
      const session = await pickCluster(services, connections, explicit?.clusterId);
      if (!session?.backend) return undefined;
      let resource: ApiResource | undefined;
      let namespace: string | undefined;
      let labelSelector: string | undefined;
      if (explicit) {
        resource = await connections.resolve(session, explicit.resource);
        namespace = explicit.namespace ?? '';
        labelSelector = explicit.labelSelector ?? '';
      } else {
        resource = await pickResource(session);
        if (!resource) return undefined;
        namespace = await pickNamespace(session, resource);
        if (namespace === undefined) return undefined;
        labelSelector = await vscode.window.showInputBox({
          prompt: `Label selector for ${qualifiedResource(resource)} (optional)`,
          placeHolder: 'e.g. app=web,tier!=cache — leave empty for all',
        });
        if (labelSelector === undefined) return undefined;
      }
      const informer = await connections.startInformer(session, { resource, namespace, labelSelector: labelSelector.trim() });
      completeStep('watched');
      await revealQuietly(services, services.tree.model.informerNode(informer.id));
      return informer.id;
    }, 'Watch resource'),

    registerGuarded(log, 'controllerLab.stopInformer', async (arg: unknown) => {
      const id = informerIdOf(arg, services.treeView.selection);
      if (!id) {
        const picked = await vscode.window.showQuickPick([...lab.informers()].map((i) => ({ label: i.name, description: i.clusterId, id: i.id })), { placeHolder: 'Stop which informer?' });
        if (picked) lab.stopInformer(picked.id);
        return picked?.id;
      }
      lab.stopInformer(id);
      services.tree.model.nodes.forgetInformer(id);
      return id;
    }, 'Stop informer'),
  ];
}

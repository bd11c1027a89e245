import type { ClientInfo } from '../../sim/index.ts';
import type { ClusterSession } from '../model/clusterSession.ts';
import type { InformerSession } from '../model/informerSession.ts';
import { describeListProgress } from '../model/listProgress.ts';
import type { Lab } from '../model/lab.ts';
import { count, describeObject, escapeMarkdown, objectTooltip, relativeTime } from './format.ts';
import type { ControllerTreeNode } from './controllerTreeNodes.ts';
import { NodeCache, isControllerNode, nodeIds } from './treeNodes.ts';
import { NAMESPACE_ICON, objectIconId } from './kindIcons.ts';
import type { TreeNode } from './treeNodes.ts';
import { splitKey } from '../../shared/keys.ts';

// What the Clusters tree shows, as plain data: children, parents and item descriptions for every
// node. The VS Code provider only turns ItemSpec into TreeItem, so all of this is unit-tested in Node.
//
//   Cluster ─┬─ Informer ─┬─ Namespace ── Object
//            │            └─ Object (cluster-scoped)
//            ├─ Clients ── Client ── watch / writes   (simulated cluster)
//            └─ error rows (a failed connection, an informer that could not start)

export interface IconSpec {
  id: string;
  /** A theme color id (`charts.green`, `errorForeground`…). */
  color?: string;
}

export interface ItemSpec {
  id: string;
  label: string;
  description?: string;
  /** Markdown. */
  tooltip?: string;
  icon?: IconSpec;
  contextValue: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  /** Runs on click. */
  command?: { command: string; title: string; arguments: unknown[] };
}

/** The Controllers rows, as the controllers' part supplies them (src/vscode/controllers/controllerTreeRows.ts). */
export interface ControllerRows {
  root(): ControllerTreeNode | undefined;
  children(node: ControllerTreeNode): ControllerTreeNode[];
  parent(node: ControllerTreeNode): ControllerTreeNode | undefined;
  item(node: ControllerTreeNode): ItemSpec;
  /** The row with this id, as last handed out (refreshes match rows by identity). */
  lookup(id: string): ControllerTreeNode | undefined;
}

const CHANGE_COLORS: Record<string, string> = { ADDED: 'charts.green', MODIFIED: 'charts.blue', DELETED: 'charts.red' };

/** Objects shown per list before a "more" row: VS Code renders 1,000 rows fast, 10,000 slowly. */
export const OBJECT_PAGE_SIZE = 1000;

/** Up to this many objects, an informer opens with its namespaces expanded: objects show at once. */
export const EXPAND_NAMESPACES_UP_TO = 100;

export class TreeModel {
  readonly nodes = new NodeCache();
  private readonly lab: Lab;
  /** How many objects each list (by its parent's id) shows; grows with "more" and with reveal. */
  private readonly limits = new Map<string, number>();
  /** Lists whose page grew for a reveal; the provider refreshes them before revealing. */
  private grown = new Set<string>();
  /** Running controllers, shown after the clusters (set by src/vscode/controllers/controllersView.ts). */
  controllers: ControllerRows | undefined;
  /** What the user expanded or collapsed (kept across reloads); overrides the defaults below. */
  expansion: { state(id: string): boolean | undefined } | undefined;

  constructor(lab: Lab) {
    this.lab = lab;
  }

  roots(): TreeNode[] {
    const roots: TreeNode[] = [...this.lab.clusters.values()].map((c) => this.nodes.get({ kind: 'cluster', id: nodeIds.cluster(c.id), clusterId: c.id }));
    const controllers = this.controllers?.root();
    if (controllers) roots.push(controllers);
    return roots;
  }

  children(node: TreeNode | undefined): TreeNode[] {
    if (!node) return this.roots();
    if (isControllerNode(node)) return this.controllers?.children(node) ?? [];
    switch (node.kind) {
      case 'cluster': return this.clusterChildren(node.clusterId);
      case 'informer': return this.informerChildren(node.informerId);
      case 'namespace': return this.objectNodes(node.informerId, node.clusterId, node.namespace);
      case 'clients': return this.clientNodes(node.clusterId);
      case 'client': return this.clientDetails(node.clusterId, node.clientId);
      default: return [];
    }
  }

  parent(node: TreeNode): TreeNode | undefined {
    if (isControllerNode(node)) return this.controllers?.parent(node);
    switch (node.kind) {
      case 'cluster': return undefined;
      case 'informer':
      case 'clients': return this.nodes.lookup(nodeIds.cluster(node.clusterId));
      case 'namespace': return this.nodes.lookup(nodeIds.informer(node.informerId));
      case 'object': {
        const informer = this.lab.findInformer(node.informerId)?.informer;
        return node.namespace && informer && this.groupsByNamespace(informer)
          ? this.nodes.lookup(nodeIds.namespace(node.informerId, node.namespace))
          : this.nodes.lookup(nodeIds.informer(node.informerId));
      }
      case 'client': return this.nodes.lookup(nodeIds.clients(node.clusterId));
      case 'clientDetail': return this.nodes.lookup(nodeIds.client(node.clusterId, node.clientId));
      case 'error':
      case 'message':
      case 'more': return this.nodes.lookup(node.parentId);
    }
  }

  /** The node for an object, creating its ancestors' nodes so `reveal` can walk up. */
  objectNode(informerId: string, key: string): TreeNode | undefined {
    const found = this.lab.findInformer(informerId);
    const entry = found?.informer.entry(key);
    if (!found || !entry) return undefined;
    this.roots();
    this.clusterChildren(found.cluster.id);
    if (entry.namespace && this.groupsByNamespace(found.informer)) this.informerChildren(informerId);
    this.includeInPage(found.informer, entry.namespace, key);
    return this.nodes.get({ kind: 'object', id: nodeIds.object(informerId, key), clusterId: found.cluster.id, informerId, namespace: entry.namespace, key });
  }

  informerNode(informerId: string): TreeNode | undefined {
    const found = this.lab.findInformer(informerId);
    if (!found) return undefined;
    return this.nodes.get({ kind: 'informer', id: nodeIds.informer(informerId), clusterId: found.cluster.id, informerId });
  }

  /** Namespaced resources are grouped by namespace; a single-namespace informer lists objects directly. */
  private groupsByNamespace(informer: InformerSession): boolean {
    return informer.resource.namespaced && !informer.spec.namespace;
  }

  private clusterChildren(clusterId: string): TreeNode[] {
    const cluster = this.lab.clusters.get(clusterId);
    if (!cluster) return [];
    const parentId = nodeIds.cluster(clusterId);
    if (cluster.phase === 'connecting') {
      return [this.nodes.get({ kind: 'message', id: `${parentId}:connecting`, parentId, label: 'Connecting…', icon: 'loading~spin' })];
    }
    if (cluster.phase === 'failed') {
      const f = cluster.failure;
      return [this.nodes.get({ kind: 'error', id: `${parentId}:failure`, parentId, title: errorTitle(f?.kind), message: f?.message ?? 'connection failed' })];
    }
    const out: TreeNode[] = [...cluster.informers.values()].map((i) =>
      this.nodes.get({ kind: 'informer', id: nodeIds.informer(i.id), clusterId, informerId: i.id }),
    );
    for (const [name, failure] of cluster.informerFailures) {
      out.push(this.nodes.get({ kind: 'error', id: `${parentId}:informer-failure:${name}`, parentId, title: name, message: failure.message }));
    }
    if (cluster.backend?.clients) out.push(this.nodes.get({ kind: 'clients', id: nodeIds.clients(clusterId), clusterId }));
    if (out.length === 0) {
      out.push(this.nodes.get({ kind: 'message', id: `${parentId}:empty`, parentId, label: 'No informers — run “Watch Resource…”', icon: 'info' }));
    }
    return out;
  }

  private informerChildren(informerId: string): TreeNode[] {
    const found = this.lab.findInformer(informerId);
    if (!found) return [];
    const { cluster, informer } = found;
    if (!this.groupsByNamespace(informer)) return this.objectNodes(informerId, cluster.id, informer.spec.namespace || '');
    return informer.namespaces().map((namespace) =>
      this.nodes.get({ kind: 'namespace', id: nodeIds.namespace(informerId, namespace), clusterId: cluster.id, informerId, namespace }),
    );
  }

  private listParentId(informer: InformerSession, namespace: string): string {
    return this.groupsByNamespace(informer) ? nodeIds.namespace(informer.id, namespace) : nodeIds.informer(informer.id);
  }

  private objectNodes(informerId: string, clusterId: string, namespace: string): TreeNode[] {
    const informer = this.lab.findInformer(informerId)?.informer;
    if (!informer) return [];
    const entries = informer.objectsIn(namespace);
    const parentId = this.listParentId(informer, namespace);
    const limit = this.limits.get(parentId) ?? OBJECT_PAGE_SIZE;
    const out: TreeNode[] = [];
    for (let i = 0; i < entries.length && i < limit; i++) {
      const entry = entries[i]!;
      out.push(this.nodes.get({ kind: 'object', id: nodeIds.object(informerId, entry.key), clusterId, informerId, namespace, key: entry.key }));
    }
    if (entries.length > limit) out.push(this.nodes.get({ kind: 'more', id: `${parentId}:more`, parentId, informerId, namespace }));
    return out;
  }

  /** Shows another page of a long object list; returns the node whose children changed. */
  showMore(node: Extract<TreeNode, { kind: 'more' }>): TreeNode | undefined {
    this.limits.set(node.parentId, (this.limits.get(node.parentId) ?? OBJECT_PAGE_SIZE) + OBJECT_PAGE_SIZE * 5);
    return this.nodes.lookup(node.parentId);
  }

  /** Makes sure `key` is on a shown page (reveal needs it among its parent's children). */
  private includeInPage(informer: InformerSession, namespace: string, key: string): void {
    const parentId = this.listParentId(informer, namespace);
    const limit = this.limits.get(parentId) ?? OBJECT_PAGE_SIZE;
    if (informer.countIn(namespace) <= limit) return;
    const index = informer.objectsIn(namespace).findIndex((e) => e.key === key);
    if (index >= limit) {
      this.limits.set(parentId, Math.ceil((index + 1) / OBJECT_PAGE_SIZE) * OBJECT_PAGE_SIZE);
      this.grown.add(parentId);
    }
  }

  /** The lists that grew since the last call (their rows must be refreshed). */
  takeGrownLists(): TreeNode[] {
    const nodes = [...this.grown].map((id) => this.nodes.lookup(id)).filter((n): n is TreeNode => n !== undefined);
    this.grown = new Set();
    return nodes;
  }

  private clients(clusterId: string): ClientInfo[] {
    const insight = this.lab.clusters.get(clusterId)?.backend?.clients;
    if (!insight) return [];
    // Our own views talk to the sim too; list them last so the user's controllers come first.
    return insight.clients().sort((a, b) => b.lastSeen - a.lastSeen);
  }

  private clientNodes(clusterId: string): TreeNode[] {
    return this.clients(clusterId).map((c) => this.nodes.get({ kind: 'client', id: nodeIds.client(clusterId, c.id), clusterId, clientId: c.id }));
  }

  private clientDetails(clusterId: string, clientId: string): TreeNode[] {
    const client = this.clients(clusterId).find((c) => c.id === clientId);
    if (!client) return [];
    const base = nodeIds.client(clusterId, clientId);
    const out: TreeNode[] = client.watches.map((w) => ({
      kind: 'clientDetail' as const,
      id: `${base}:watch:${w.id}`,
      clusterId,
      clientId,
      label: `watch ${w.resource}${w.namespace ? ` in ${w.namespace}` : ''}${w.labelSelector ? ` [${w.labelSelector}]` : ''}`,
      description: `last rv ${w.lastResourceVersion || '—'} · ${count(w.events, 'event')}${w.open ? '' : ` · closed (${w.closeReason ?? 'ended'})`}`,
      icon: w.open ? 'eye' : 'eye-closed',
    }));
    out.push({
      kind: 'clientDetail',
      id: `${base}:writes`,
      clusterId,
      clientId,
      label: count(client.writes, 'write'),
      description: client.recentWrites.slice(-1).map((w) => `last: ${w.verb} ${w.resource} ${w.key} → ${w.code}`)[0] ?? '',
      icon: 'edit',
    });
    return out.map((n) => this.nodes.get(n));
  }

  item(node: TreeNode): ItemSpec {
    const spec = this.defaultItem(node);
    if (spec.collapsible === 'none') return spec;
    const remembered = this.expansion?.state(spec.id);
    return remembered === undefined ? spec : { ...spec, collapsible: remembered ? 'expanded' : 'collapsed' };
  }

  private defaultItem(node: TreeNode): ItemSpec {
    if (isControllerNode(node)) return this.controllers?.item(node) ?? { id: node.id, label: node.id, contextValue: 'controller', collapsible: 'none' };
    switch (node.kind) {
      case 'cluster': return this.clusterItem(node.clusterId, node.id);
      case 'informer': return this.informerItem(node.informerId, node.id);
      case 'namespace': {
        const informer = this.lab.findInformer(node.informerId)?.informer;
        return {
          id: node.id,
          label: node.namespace,
          description: count(informer?.countIn(node.namespace) ?? 0, 'object'),
          tooltip: `Namespace **${escapeMarkdown(node.namespace)}**`,
          icon: { id: NAMESPACE_ICON },
          contextValue: 'namespace',
          // A small cache shows its objects at once; a big one opens namespace by namespace.
          collapsible: (informer?.count ?? 0) <= EXPAND_NAMESPACES_UP_TO ? 'expanded' : 'collapsed',
        };
      }
      case 'object': return this.objectItem(node);
      case 'clients': {
        const n = this.clients(node.clusterId).length;
        return {
          id: node.id,
          label: 'Clients',
          description: count(n, 'client'),
          tooltip: 'Everything that talks to the simulated cluster: your controllers, kubectl, and these views.',
          icon: { id: 'plug' },
          contextValue: 'clients',
          collapsible: 'collapsed',
        };
      }
      case 'client': {
        const c = this.clients(node.clusterId).find((x) => x.id === node.clientId);
        const open = c?.watches.filter((w) => w.open).length ?? 0;
        return {
          id: node.id,
          label: c?.userAgent || 'unknown client',
          description: c ? `${count(open, 'watch', 'watches')} · ${count(c.lists, 'list')} · ${count(c.writes, 'write')}${c.errors ? ` · ${count(c.errors, 'error')}` : ''}` : 'gone',
          tooltip: c ? `**${escapeMarkdown(c.userAgent)}**\n\nfirst seen ${new Date(c.firstSeen).toISOString()}, last seen ${relativeTime(this.lab.clock.now() - c.lastSeen)}` : undefined,
          icon: { id: 'account', color: c?.errors ? 'charts.yellow' : undefined },
          contextValue: 'client',
          collapsible: 'collapsed',
        };
      }
      case 'clientDetail':
        return { id: node.id, label: node.label, description: node.description, icon: { id: node.icon }, contextValue: 'clientDetail', collapsible: 'none' };
      case 'error':
        return {
          id: node.id,
          label: node.title,
          description: node.message,
          tooltip: `**${escapeMarkdown(node.title)}**\n\n${escapeMarkdown(node.message)}`,
          icon: { id: 'error', color: 'errorForeground' },
          contextValue: 'error',
          collapsible: 'none',
        };
      case 'message':
        return { id: node.id, label: node.label, icon: { id: node.icon }, contextValue: 'message', collapsible: 'none' };
      case 'more': {
        const informer = this.lab.findInformer(node.informerId)?.informer;
        const total = informer?.countIn(node.namespace) ?? 0;
        const shown = this.limits.get(node.parentId) ?? OBJECT_PAGE_SIZE;
        return {
          id: node.id,
          label: `Show more… (${(total - shown).toLocaleString('en-US')} not shown)`,
          description: `${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`,
          tooltip: 'Long lists are shown a page at a time so the view stays fast. “Copy Key”/“Open Object” from the palette search all objects.',
          icon: { id: 'ellipsis' },
          contextValue: 'more',
          collapsible: 'none',
          command: { command: 'controllerLab.showMore', title: 'Show more', arguments: [node] },
        };
      }
    }
  }

  /** The tooltips too costly to build for every row up front (objects), built on hover. */
  resolveTooltip(node: TreeNode): string | undefined {
    if (node.kind !== 'object') return this.item(node).tooltip;
    const entry = this.lab.findInformer(node.informerId)?.informer.entry(node.key);
    return entry ? objectTooltip(entry.object, entry.lastChange, this.lab.clock.now() - entry.lastChangeAt) : undefined;
  }

  private clusterItem(clusterId: string, id: string): ItemSpec {
    const c = this.lab.clusters.get(clusterId);
    if (!c) return { id, label: clusterId, contextValue: 'cluster', collapsible: 'none' };
    const total = c.informers.size;
    const origin = c.backend?.origin?.kind === 'restored' ? ' · restored' : c.backend?.origin?.kind === 'new' ? ' · new' : '';
    const description =
      c.phase === 'connected' ? `${c.syncedCount()}/${total} synced${origin}${c.server ? ` · ${c.server}` : ''}` : c.phase === 'connecting' ? 'connecting…' : 'failed';
    return {
      id,
      label: c.label,
      description,
      tooltip: clusterTooltip(c),
      icon: c.phase === 'failed'
        ? { id: 'error', color: 'errorForeground' }
        : { id: c.kind === 'sim' ? 'beaker' : 'server-environment', color: c.phase === 'connected' ? 'charts.green' : undefined },
      contextValue: `cluster.${c.kind}.${c.phase}`,
      collapsible: 'expanded',
    };
  }

  private informerItem(informerId: string, id: string): ItemSpec {
    const found = this.lab.findInformer(informerId);
    if (!found) return { id, label: informerId, contextValue: 'informer', collapsible: 'none' };
    const i = found.informer;
    const stats = i.stats();
    const queued = stats.handlers.reduce((n, h) => n + h.queued, 0);
    const scope = i.resource.namespaced ? (i.spec.namespace ? `in ${i.spec.namespace}` : 'all namespaces') : 'cluster';
    const health: string[] = [];
    if (stats.relists) health.push(`⟳ ${stats.relists}`);
    if (stats.expired) health.push(`410 × ${stats.expired}`);
    if (stats.reconnects) health.push(`↻ ${stats.reconnects}`);
    if (queued) health.push(`queued ${queued}`);
    const rv = i.informer.lastSyncResourceVersion();
    const phase = i.phase === 'retrying' && i.lastError ? `retrying: ${i.lastError}` : i.phase;
    // While a list loads, the cache is still empty (or the last list's): show what has arrived so far.
    const listing = i.listProgress();
    const held = listing ? describeListProgress(listing) : count(i.count, 'object');
    const description = [scope, i.spec.labelSelector ? `[${i.spec.labelSelector}]` : '', phase, rv ? `rv ${rv}` : '', held, ...health]
      .filter(Boolean)
      .join(' · ');
    const tooltip = [
      `**${escapeMarkdown(i.name)}** — ${i.phase}`,
      '',
      '| | |',
      '|---|---|',
      `| scope | ${escapeMarkdown(scope)} |`,
      `| label selector | ${escapeMarkdown(i.spec.labelSelector || '—')} |`,
      `| last synced RV | ${escapeMarkdown(rv || '—')} |`,
      `| latest RV seen | ${escapeMarkdown(i.latestResourceVersion || '—')} |`,
      `| objects | ${i.count} |`,
      ...(listing ? [`| listing | ${describeListProgress(listing)} |`] : []),
      `| lists / relists | ${stats.lists} / ${stats.relists} |`,
      `| 410 Expired | ${stats.expired} |`,
      `| reconnects | ${stats.reconnects} |`,
      `| watch events / bookmarks | ${stats.events} / ${stats.bookmarks} |`,
      `| errors | ${stats.errors} |`,
      `| handler buffers | ${escapeMarkdown(stats.handlers.map((h) => `${h.name}: ${h.queued}`).join(', ') || '—')} |`,
      ...(i.lastError ? ['', `last error: ${escapeMarkdown(i.lastError)}`] : []),
    ].join('\n');
    const icon: IconSpec =
      i.phase === 'synced'
        ? { id: stats.expired || stats.relists ? 'pass' : 'pass-filled', color: 'charts.green' }
        : i.phase === 'syncing'
          ? { id: 'sync~spin', color: 'charts.blue' }
          : i.phase === 'retrying'
            ? { id: 'warning', color: 'charts.yellow' }
            : { id: 'debug-stop' };
    return { id, label: i.name, description, tooltip, icon, contextValue: i.phase === 'stopped' ? 'informer.stopped' : 'informer', collapsible: 'expanded' };
  }

  private objectItem(node: Extract<TreeNode, { kind: 'object' }>): ItemSpec {
    const informer = this.lab.findInformer(node.informerId)?.informer;
    const entry = informer?.entry(node.key);
    const { name } = splitKey(node.key);
    if (!entry) return { id: node.id, label: name, description: 'deleted', icon: { id: 'trash', color: 'charts.red' }, contextValue: 'object.deleted', collapsible: 'none' };
    const age = this.lab.clock.now() - entry.lastChangeAt;
    const rv = entry.object.metadata.resourceVersion ?? '';
    return {
      id: node.id,
      label: entry.name,
      description: describeObject(rv, entry.lastChange, age),
      // The tooltip is built on hover (resolveTooltip): 10,000 rows should not pay for it.
      icon: { id: entry.object.metadata.deletionTimestamp ? 'trash' : objectIconId(entry.object.kind ?? informer?.resource.kind), color: CHANGE_COLORS[entry.lastChange] },
      contextValue: 'object',
      collapsible: 'none',
      command: { command: 'controllerLab.openObject', title: 'Open', arguments: [node] },
    };
  }
}

function errorTitle(kind: string | undefined): string {
  switch (kind) {
    case 'unreachable': return 'Cluster unreachable';
    case 'timeout': return 'Timed out';
    case 'tls': return 'TLS failure';
    case 'unauthorized': return 'Unauthorized (401)';
    case 'forbidden': return 'Forbidden (403)';
    case 'kubeconfig': return 'Bad kubeconfig';
    case 'credentials': return 'Credentials failed';
    case 'unknownResource': return 'Unknown resource';
    default: return 'Connection failed';
  }
}

function clusterTooltip(c: ClusterSession): string {
  const lines = [`**${escapeMarkdown(c.label)}**`, ''];
  if (c.server) lines.push(`server: ${escapeMarkdown(c.server)}`);
  if (c.backend?.kubeconfigPath) lines.push('', `kubeconfig: ${escapeMarkdown(c.backend.kubeconfigPath)}`);
  const origin = c.backend?.origin;
  if (origin?.kind === 'restored') lines.push('', `Restored from the last session: ${count(origin.objects, 'object')}. “Reset Simulated Cluster” starts over.`);
  else if (origin?.kind === 'new') lines.push('', origin.stateDir ? 'A new cluster; its objects are kept across window reloads.' : 'A new cluster, in memory only.');
  if (c.failure) lines.push('', escapeMarkdown(c.failure.message));
  return lines.join('\n');
}

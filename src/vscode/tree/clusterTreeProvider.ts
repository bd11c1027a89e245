import * as vscode from 'vscode';
import { realClock } from '../../shared/clock.ts';
import { Disposable } from '../disposable.ts';
import type { Lab, LabChange } from '../model/lab.ts';
import type { ExpansionMemory } from './expansionMemory.ts';
import { RefreshScheduler } from './refreshScheduler.ts';
import { TreeModel } from './treeModel.ts';
import type { ItemSpec } from './treeModel.ts';
import { nodeIds } from './treeNodes.ts';
import type { TreeNode } from './treeNodes.ts';

// The Clusters view. TreeModel decides what is shown; this class maps it onto VS Code and turns
// lab changes into batched refreshes of just the elements that changed.

const COLLAPSIBLE = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;

export function toTreeItem(spec: ItemSpec): vscode.TreeItem {
  const item = new vscode.TreeItem(spec.label, COLLAPSIBLE[spec.collapsible]);
  item.id = spec.id;
  item.description = spec.description;
  item.contextValue = spec.contextValue;
  if (spec.tooltip) item.tooltip = new vscode.MarkdownString(spec.tooltip);
  if (spec.icon) item.iconPath = new vscode.ThemeIcon(spec.icon.id, spec.icon.color ? new vscode.ThemeColor(spec.icon.color) : undefined);
  if (spec.command) item.command = spec.command;
  return item;
}

export class ClusterTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  readonly model: TreeModel;
  private readonly changeEmitter = this._register(new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly scheduler: RefreshScheduler<TreeNode>;
  private readonly clientSubscriptions = new Map<string, () => void>();
  private readonly syncedCounts = new Map<string, number>();
  /** Rows the user has expanded: their children's "2s ago" ages are refreshed now and then. */
  private readonly expanded = new Set<TreeNode>();

  constructor(lab: Lab) {
    super();
    this.model = new TreeModel(lab);
    this.scheduler = new RefreshScheduler<TreeNode>({
      clock: realClock,
      fire: (items) => this.changeEmitter.fire(items),
    });
    this._register(this.scheduler);
    this._registerFn(lab.onDidChange((change) => this.onLabChange(lab, change)));
    this._registerFn(() => {
      for (const unsubscribe of this.clientSubscriptions.values()) unsubscribe();
    });
  }

  /** Follows expansion so ages ("MODIFIED 2s ago") in open lists keep moving while the view shows. */
  trackExpansion(view: vscode.TreeView<TreeNode>, ageRefreshMs = 10_000, memory?: ExpansionMemory): void {
    this._register(view.onDidExpandElement((e) => {
      this.expanded.add(e.element);
      memory?.set(e.element.id, true);
    }));
    this._register(view.onDidCollapseElement((e) => {
      this.expanded.delete(e.element);
      memory?.set(e.element.id, false);
    }));
    const timer = setInterval(() => {
      if (!view.visible) return;
      // Rows open by default (small informers' namespaces) never fire an expand event: count them too.
      for (const node of this.model.nodes.values()) {
        if ((node.kind === 'namespace' || node.kind === 'informer') && this.model.item(node).collapsible === 'expanded') this.expanded.add(node);
      }
      for (const node of this.expanded) {
        if (node.kind === 'namespace' || node.kind === 'informer' || node.kind === 'client' || node.kind === 'clients') {
          if (this.model.nodes.lookup(node.id) === node) this.scheduler.mark(node);
          else this.expanded.delete(node);
        }
      }
    }, ageRefreshMs);
    this._registerFn(() => clearInterval(timer));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return toTreeItem(this.model.item(node));
  }

  /** Called when VS Code asks for the roots: the view is being shown (the zero-setup auto-connect hooks in here). */
  onRootsRequested: (() => void) | undefined;

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) this.onRootsRequested?.();
    return this.model.children(node);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.model.parent(node);
  }

  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    const tooltip = this.model.resolveTooltip(node);
    if (tooltip) item.tooltip = new vscode.MarkdownString(tooltip);
    return item;
  }

  /** The "Show more…" row: the next page of a long object list. */
  showMore(node: TreeNode): void {
    if (node.kind !== 'more') return;
    const parent = this.model.showMore(node);
    if (parent) this.changeEmitter.fire(parent);
  }

  /** Reveals an object, first growing and refreshing its list when it sits beyond the shown page. */
  async revealObject(view: vscode.TreeView<TreeNode>, informerId: string, key: string, options: { select?: boolean; focus?: boolean } = {}): Promise<TreeNode | undefined> {
    const node = this.model.objectNode(informerId, key);
    if (!node) return undefined;
    const grown = this.model.takeGrownLists();
    if (grown.length) this.changeEmitter.fire(grown);
    // A list that just grew (or a refresh in flight) may not hold the row yet when VS Code looks
    // for it: try again shortly, as a user clicking twice would.
    for (let attempt = 1; ; attempt++) {
      try {
        await view.reveal(node, { select: options.select ?? true, focus: options.focus ?? false, expand: false });
        return node;
      } catch (err) {
        if (attempt >= 4) throw err;
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      }
    }
  }

  /** Refreshes everything now (the Refresh command). */
  refresh(): void {
    this.scheduler.markAll();
    this.scheduler.flush();
  }

  /** Refreshes fired so far (the load test checks they stay ≤ 5/s). */
  get flushCount(): number {
    return this.scheduler.flushes;
  }

  /** Pending refreshes, fired now (tests call this instead of waiting). */
  flush(): void {
    this.scheduler.flush();
  }

  /** Marks rows by id for the next coalesced refresh, or every row: the running controllers' live rows (src/vscode/controllers). */
  markIds(ids: readonly string[] | 'all'): void {
    if (ids === 'all') {
      this.scheduler.markAll();
      return;
    }
    for (const id of ids) {
      const node = this.model.controllers?.lookup(id) ?? this.model.nodes.lookup(id);
      if (node) this.scheduler.mark(node);
    }
  }

  private markId(id: string): void {
    const node = this.model.nodes.lookup(id);
    if (node) this.scheduler.mark(node);
  }

  private onLabChange(lab: Lab, change: LabChange): void {
    switch (change.kind) {
      case 'clusters':
        for (const [id, unsubscribe] of this.clientSubscriptions) {
          if (!lab.clusters.has(id)) {
            unsubscribe();
            this.clientSubscriptions.delete(id);
          }
        }
        this.scheduler.markAll();
        break;
      case 'cluster': {
        this.watchClients(change.cluster.id, lab);
        const node = this.model.nodes.lookup(nodeIds.cluster(change.cluster.id));
        if (node) this.scheduler.mark(node);
        else this.scheduler.markAll();
        break;
      }
      case 'informer': {
        const { informer, change: c } = change;
        if (c.informer) {
          this.markId(nodeIds.informer(informer.id));
          // The cluster row counts synced informers; refresh it only when that count moves (a refresh
          // re-reads everything expanded below it).
          const synced = lab.clusters.get(informer.clusterId)?.syncedCount() ?? 0;
          if (this.syncedCounts.get(informer.clusterId) !== synced) {
            this.syncedCounts.set(informer.clusterId, synced);
            this.markId(nodeIds.cluster(informer.clusterId));
          }
        }
        const grouped = informer.resource.namespaced && !informer.spec.namespace;
        for (const ns of c.namespaces) {
          // The namespace row's count changed and its children; a new or emptied namespace changes the informer's children.
          this.markId(grouped ? nodeIds.namespace(informer.id, ns) : nodeIds.informer(informer.id));
          if (grouped) this.markId(nodeIds.informer(informer.id));
        }
        for (const key of c.objects) this.markId(nodeIds.object(informer.id, key));
        break;
      }
    }
  }

  /** The simulated cluster's client list changes as clients connect, watch and write. */
  private watchClients(clusterId: string, lab: Lab): void {
    const clients = lab.clusters.get(clusterId)?.backend?.clients;
    if (!clients || this.clientSubscriptions.has(clusterId)) return;
    this.clientSubscriptions.set(
      clusterId,
      clients.onDidChange(() => {
        const node = this.model.nodes.lookup(nodeIds.clients(clusterId));
        if (node) this.scheduler.mark(node);
      }),
    );
  }
}

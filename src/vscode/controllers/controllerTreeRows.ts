import { count } from '../tree/format.ts';
import type { ControllerRows, ItemSpec } from '../tree/treeModel.ts';
import { hasEnded } from './controllerEntry.ts';
import { controllerTreeItem } from './controllerTreeItems.ts';
import type { ControllerSessionsModel } from './controllerSessionsModel.ts';
import { controllerNodeIds, type ControllerTreeNode } from '../tree/controllerTreeNodes.ts';

// The Controllers rows of the tree: which rows there are and their parents (their ids are
// ../tree/controllerTreeNodes.ts; how each row reads, controllerTreeItems.ts).
//
//   Controllers ── controller ─┬─ Informers ── informer (synced, last RV, events, relists, 410s)
//                              └─ Workqueue ── key (queued / processing / waiting · retries · backoff)
//               └─ Finished ── controller (how it ended)

/** Keys listed under Workqueue (a queue of 10,000 keys is summarised by its counts). */
export const MAX_QUEUE_ROWS = 500;

export class ControllerTreeRows implements ControllerRows {
  readonly model: ControllerSessionsModel;
  private readonly nodes = new Map<string, ControllerTreeNode>();
  private readonly unsubscribe: () => void;

  constructor(model: ControllerSessionsModel) {
    this.model = model;
    // A session the model no longer lists (one ended too long ago) takes its rows with it.
    this.unsubscribe = model.onDidChange((change) => {
      if (change.kind === 'sessions') this.forgetEndedSessions();
    });
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** One instance per id (VS Code matches refreshes to elements by identity). */
  node<N extends ControllerTreeNode>(node: N): N {
    const existing = this.nodes.get(node.id);
    if (existing && existing.kind === node.kind) return existing as N;
    this.nodes.set(node.id, node);
    return node;
  }

  lookup(id: string): ControllerTreeNode | undefined {
    return this.nodes.get(id);
  }

  root(): ControllerTreeNode | undefined {
    return this.model.hasSessions ? this.node({ kind: 'controllers', id: controllerNodeIds.root }) : undefined;
  }

  children(node: ControllerTreeNode): ControllerTreeNode[] {
    const entries = this.model.entries;
    switch (node.kind) {
      case 'controllers': {
        const live = [...entries.values()].filter((e) => !hasEnded(e));
        const rows: ControllerTreeNode[] = live.map((e) => this.node({ kind: 'controller', id: controllerNodeIds.controller(e.id), sessionId: e.id }));
        if (live.length < entries.size) rows.push(this.node({ kind: 'controllersFinished', id: controllerNodeIds.finished }));
        return rows;
      }
      case 'controllersFinished':
        return [...entries.values()].filter(hasEnded).reverse().map((e) => this.node({ kind: 'controller', id: controllerNodeIds.controller(e.id), sessionId: e.id }));
      case 'controller': {
        const entry = entries.get(node.sessionId);
        // An ended controller has no live informers or queue: its row says how it ended.
        if (!entry || hasEnded(entry)) return [];
        return [
          this.node({ kind: 'controllerInformers', id: controllerNodeIds.informers(node.sessionId), sessionId: node.sessionId }),
          this.node({ kind: 'controllerQueue', id: controllerNodeIds.queue(node.sessionId), sessionId: node.sessionId }),
        ];
      }
      case 'controllerInformers': {
        const entry = entries.get(node.sessionId);
        if (!entry) return [];
        if (entry.informers.size === 0) return [this.node({ kind: 'controllerMessage', id: `${node.id}:none`, parentId: node.id, label: 'No informer activity yet' })];
        return [...entry.informers.keys()].map((informer) =>
          this.node({ kind: 'controllerInformer', id: controllerNodeIds.informer(node.sessionId, informer), sessionId: node.sessionId, informer }),
        );
      }
      case 'controllerQueue': {
        const entry = entries.get(node.sessionId);
        if (!entry) return [];
        if (entry.queue.keys.length === 0) return [this.node({ kind: 'controllerMessage', id: `${node.id}:empty`, parentId: node.id, label: 'Empty' })];
        const shown = entry.queue.keys.slice(0, MAX_QUEUE_ROWS);
        const rows: ControllerTreeNode[] = shown.map((k) => this.node({ kind: 'controllerQueueKey', id: controllerNodeIds.queueKey(node.sessionId, k.key), sessionId: node.sessionId, key: k.key }));
        const hidden = entry.queue.keys.length - shown.length;
        if (hidden > 0) {
          // Its label changes with the count: a fresh node each time (nothing refreshes it by identity).
          const more: ControllerTreeNode = { kind: 'controllerMessage', id: `${node.id}:more`, parentId: node.id, label: `… ${count(hidden, 'more key')}` };
          this.nodes.set(more.id, more);
          rows.push(more);
        }
        return rows;
      }
      default:
        return [];
    }
  }

  parent(node: ControllerTreeNode): ControllerTreeNode | undefined {
    switch (node.kind) {
      case 'controllers': return undefined;
      case 'controller': {
        const entry = this.model.entries.get(node.sessionId);
        return this.lookup(entry && hasEnded(entry) ? controllerNodeIds.finished : controllerNodeIds.root);
      }
      case 'controllersFinished': return this.lookup(controllerNodeIds.root);
      case 'controllerInformers':
      case 'controllerQueue': return this.lookup(controllerNodeIds.controller(node.sessionId));
      case 'controllerInformer': return this.lookup(controllerNodeIds.informers(node.sessionId));
      case 'controllerQueueKey': return this.lookup(controllerNodeIds.queue(node.sessionId));
      case 'controllerMessage': return this.lookup(node.parentId);
    }
  }

  item(node: ControllerTreeNode): ItemSpec {
    return controllerTreeItem(this.model, node);
  }

  private forgetEndedSessions(): void {
    for (const id of [...this.nodes.keys()]) {
      const sessionId = /^ctl:([^:]+)/.exec(id)?.[1];
      if (sessionId !== undefined && !this.model.entries.has(sessionId)) this.nodes.delete(id);
    }
  }
}

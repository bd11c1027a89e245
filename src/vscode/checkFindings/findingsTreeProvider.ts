import * as vscode from 'vscode';
import { Disposable } from '../disposable.ts';
import { toTreeItem } from '../tree/clusterTreeProvider.ts';
import type { FindingsModel, FindingsNode } from './findingsModel.ts';

// The Check Findings view: FindingsModel decides what is shown; this maps it onto VS Code. A row's
// command (Replay in Debugger, copy the replay command) is given the row, as menus give it.

export class FindingsTreeProvider extends Disposable implements vscode.TreeDataProvider<FindingsNode> {
  readonly model: FindingsModel;
  private readonly changeEmitter = this._register(new vscode.EventEmitter<undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly parents = new Map<FindingsNode, FindingsNode>();

  constructor(model: FindingsModel) {
    super();
    this.model = model;
    this._registerFn(model.onDidChange(() => this.changeEmitter.fire(undefined)));
  }

  getTreeItem(node: FindingsNode): vscode.TreeItem {
    const item = toTreeItem(node.item);
    if (node.item.command) item.command = { ...node.item.command, arguments: [node] };
    item.accessibilityInformation = { label: [node.item.label, node.item.description].filter(Boolean).join(', ') };
    return item;
  }

  getChildren(node?: FindingsNode): FindingsNode[] {
    if (!node) {
      this.parents.clear();
      return this.model.roots();
    }
    for (const child of node.children) this.parents.set(child, node);
    return node.children;
  }

  getParent(node: FindingsNode): FindingsNode | undefined {
    return this.parents.get(node);
  }
}

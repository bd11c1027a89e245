import * as vscode from 'vscode';
import type { Lab } from '../model/lab.ts';
import type { TreeNode } from '../tree/treeNodes.ts';
import { noObjectsMessage } from './noObjectsMessage.ts';

// Which object a command is about: the tree row it was invoked on, an explicit {informerId, key}
// (tests, other extensions), the tree's selection, or — from the palette — a quick pick.

export interface ObjectTarget {
  informerId: string;
  key: string;
}

export function isObjectTarget(value: unknown): value is ObjectTarget {
  return typeof value === 'object' && value !== null && typeof (value as ObjectTarget).informerId === 'string' && typeof (value as ObjectTarget).key === 'string';
}

export async function pickObject(lab: Lab, arg: unknown, selection: readonly TreeNode[]): Promise<ObjectTarget | undefined> {
  if (isObjectTarget(arg)) return { informerId: arg.informerId, key: arg.key };
  const selected = selection.find((n) => n.kind === 'object');
  if (selected && selected.kind === 'object') return { informerId: selected.informerId, key: selected.key };
  const items: (vscode.QuickPickItem & ObjectTarget)[] = [];
  for (const informer of lab.informers()) {
    for (const ns of informer.namespaces()) {
      for (const entry of informer.objectsIn(ns)) {
        items.push({ label: entry.name, description: `${informer.name}${entry.namespace ? ` · ${entry.namespace}` : ''}`, detail: undefined, informerId: informer.id, key: entry.key });
      }
    }
  }
  if (items.length === 0) {
    const { text, actions } = noObjectsMessage(lab.clusters.size);
    void vscode.window.showInformationMessage(text, ...actions.map((a) => a.title)).then((choice) => {
      const action = actions.find((a) => a.title === choice);
      if (action) void vscode.commands.executeCommand(action.command);
    });
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Which object?', matchOnDescription: true });
  return picked ? { informerId: picked.informerId, key: picked.key } : undefined;
}

export function informerIdOf(arg: unknown, selection: readonly TreeNode[]): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { informerId?: unknown }).informerId === 'string') return (arg as { informerId: string }).informerId;
  const selected = selection.find((n) => 'informerId' in n);
  return selected && 'informerId' in selected ? selected.informerId : undefined;
}

import * as vscode from 'vscode';
import { describeUri } from '../documents/describeProvider.ts';
import { editUri } from '../documents/editFileSystem.ts';
import { deleteLive, locate } from '../documents/liveObject.ts';
import type { LabServices } from '../services.ts';
import { registerGuarded } from '../guard.ts';
import { completeStep } from '../walkthrough.ts';
import { pickObject } from './objectTarget.ts';
import type { ObjectTarget } from './objectTarget.ts';

// Changing the cluster from the tree, as vscode-kubernetes-tools does: Edit (a YAML document whose
// save applies), Describe (a kubectl-describe-like text) and Delete (after a modal confirmation).

function address(services: LabServices, t: ObjectTarget) {
  const found = services.lab.findInformer(t.informerId);
  if (!found) throw new Error(`the informer ${t.informerId} is not running`);
  return { informerId: t.informerId, resource: found.informer.name, key: t.key };
}

export async function editObject(services: LabServices, t: ObjectTarget): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(editUri(address(services, t)));
  if (doc.languageId !== 'yaml') await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
  completeStep('objectChanged');
  return vscode.window.showTextDocument(doc, { preview: false });
}

export async function describeObject(services: LabServices, t: ObjectTarget): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(describeUri(address(services, t)));
  completeStep('objectChanged');
  return vscode.window.showTextDocument(doc, { preview: true });
}

/** Deletes after a modal confirmation (`confirmed: true` skips it: tests, scripts). Returns whether it deleted. */
export async function deleteObject(services: LabServices, t: ObjectTarget, confirmed = false): Promise<boolean> {
  const where = locate(services.lab, t);
  const what = `${where.resource.kind} ${where.namespace ? `${where.namespace}/` : ''}${where.name}`;
  if (!confirmed) {
    const choice = await vscode.window.showWarningMessage(`Delete ${what}?`, { modal: true, detail: `From ${where.clusterLabel}. This cannot be undone.` }, 'Delete');
    if (choice !== 'Delete') return false;
  }
  await deleteLive(services.lab, t);
  completeStep('objectChanged');
  services.log.info(`deleted ${what} from ${where.clusterLabel}`);
  vscode.window.setStatusBarMessage(`$(trash) Deleted ${what}`, 4000);
  return true;
}

export function registerObjectActions(services: LabServices): vscode.Disposable[] {
  const { log, lab, treeView } = services;
  const target = (arg: unknown) => pickObject(lab, arg, treeView.selection);
  return [
    registerGuarded(log, 'controllerLab.editObject', async (arg: unknown) => {
      const t = await target(arg);
      if (t) await editObject(services, t);
    }, 'Edit object'),
    registerGuarded(log, 'controllerLab.describeObject', async (arg: unknown) => {
      const t = await target(arg);
      if (t) await describeObject(services, t);
    }, 'Describe object'),
    registerGuarded(log, 'controllerLab.deleteObject', async (arg: unknown) => {
      const t = await target(arg);
      const confirmed = typeof arg === 'object' && arg !== null && (arg as { confirmed?: unknown }).confirmed === true;
      return t ? deleteObject(services, t, confirmed) : false;
    }, 'Delete object'),
  ];
}

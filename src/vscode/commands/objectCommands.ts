import * as vscode from 'vscode';
import { objectUri } from '../documents/objectDocumentProvider.ts';
import { qualifiedResource } from '../../shared/k8s.ts';
import type { LabServices } from '../services.ts';
import { TimelinePanel } from '../timeline/timelinePanel.ts';
import { registerGuarded } from '../guard.ts';
import { completeStep } from '../walkthrough.ts';
import { pickObject } from './objectTarget.ts';
import type { ObjectTarget } from './objectTarget.ts';
import { splitKey } from '../../shared/keys.ts';

// Commands on one cached object: open its live YAML, diff two versions, show it in the timeline,
// copy its key.

function informerOf(services: LabServices, target: ObjectTarget) {
  const found = services.lab.findInformer(target.informerId);
  if (!found) throw new Error(`the informer ${target.informerId} is not running`);
  return found.informer;
}

export async function openObject(services: LabServices, target: ObjectTarget): Promise<vscode.TextEditor> {
  const informer = informerOf(services, target);
  const uri = objectUri({ informerId: informer.id, resource: informer.name, key: target.key });
  const doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== 'yaml') await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
  return vscode.window.showTextDocument(doc, { preview: true });
}

/** Diffs `resourceVersion` (default: the latest) with the version before it. */
export async function compareWithPrevious(services: LabServices, target: ObjectTarget, resourceVersion?: string): Promise<boolean> {
  const informer = informerOf(services, target);
  const { version, previous } = resourceVersion ? informer.history.at(target.key, resourceVersion) : informer.history.lastTwo(target.key);
  if (!version || !previous) {
    void vscode.window.showInformationMessage(
      `Controller Lab: only one version of ${target.key} has been seen since the informer started — nothing to compare yet.`,
    );
    return false;
  }
  const address = { informerId: informer.id, resource: informer.name, key: target.key };
  const left = objectUri({ ...address, resourceVersion: previous.resourceVersion });
  const right = objectUri({ ...address, resourceVersion: version.resourceVersion });
  const { name } = splitKey(target.key);
  await vscode.commands.executeCommand('vscode.diff', left, right, `${name}: rv ${previous.resourceVersion} ↔ rv ${version.resourceVersion}`, { preview: true });
  return true;
}

export function showInTimeline(services: LabServices, target: ObjectTarget): TimelinePanel {
  const informer = informerOf(services, target);
  const panel = showTimeline(services);
  panel.focus({ resource: qualifiedResource(informer.resource), ...splitKey(target.key) });
  return panel;
}

export function showTimeline(services: LabServices): TimelinePanel {
  completeStep('timeline');
  return TimelinePanel.show(services.extensionUri, services.lab, services.settings, {
    openObject: async (informerId, key) => void (await openObject(services, { informerId, key })),
    compareObject: async (informerId, key, rv) => void (await compareWithPrevious(services, { informerId, key }, rv)),
  });
}

export function registerObjectCommands(services: LabServices): vscode.Disposable[] {
  const { log, lab, treeView } = services;
  const target = (arg: unknown) => pickObject(lab, arg, treeView.selection);
  return [
    registerGuarded(log, 'controllerLab.openObject', async (arg: unknown) => {
      const t = await target(arg);
      if (t) await openObject(services, t);
    }, 'Open object'),
    registerGuarded(log, 'controllerLab.compareWithPrevious', async (arg: unknown) => {
      const t = await target(arg);
      return t ? compareWithPrevious(services, t) : false;
    }, 'Compare with previous version'),
    registerGuarded(log, 'controllerLab.showInTimeline', async (arg: unknown) => {
      const t = await target(arg);
      if (t) showInTimeline(services, t);
    }, 'Show in timeline'),
    registerGuarded(log, 'controllerLab.copyKey', async (arg: unknown) => {
      const t = await target(arg);
      if (t) {
        await vscode.env.clipboard.writeText(t.key);
        vscode.window.setStatusBarMessage(`Copied ${t.key}`, 2000);
      }
      return t?.key;
    }, 'Copy key'),
    registerGuarded(log, 'controllerLab.showTimeline', () => void showTimeline(services), 'Open timeline'),
  ];
}

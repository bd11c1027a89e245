import * as vscode from 'vscode';
import { controllerSessions, type WhyTarget } from '../../runtime/index.ts';
import type { LabServices } from '../services.ts';
import { registerGuarded } from '../guard.ts';
import { pickObject } from './objectTarget.ts';
import { objectKeyOfEvent } from '../timeline/eventDetails.ts';
import { kindOfTimelineResource, whyReport } from '../controllers/whyReport.ts';

// "Why (Not)?" on an object in the tree (its recent changes) or on an event of the timeline (that
// change): each running controller's answer, one step per line, in an output channel.

/** What the timeline's context menu passes: its webview section, and the event under the pointer. */
interface TimelineContext {
  webview: string;
  seq: number;
}

function isTimelineContext(arg: unknown): arg is TimelineContext {
  return typeof arg === 'object' && arg !== null && typeof (arg as TimelineContext).seq === 'number' && typeof (arg as TimelineContext).webview === 'string';
}

async function targetOf(services: LabServices, arg: unknown): Promise<WhyTarget | undefined> {
  if (isTimelineContext(arg)) {
    const event = services.lab.timeline.events.get(arg.seq);
    if (!event?.name) throw new Error('that timeline event is no longer kept, or concerns no object');
    return { kind: event.kind ?? kindOfTimelineResource(event.resource), key: objectKeyOfEvent(event), ...(event.resourceVersion ? { resourceVersion: event.resourceVersion } : {}) };
  }
  const t = await pickObject(services.lab, arg, services.treeView.selection);
  if (!t) return undefined;
  const found = services.lab.findInformer(t.informerId);
  if (!found) throw new Error(`the informer ${t.informerId} is not running`);
  return { kind: found.informer.resource.kind, key: t.key };
}

export function registerWhyCommands(services: LabServices): vscode.Disposable[] {
  const channel = vscode.window.createOutputChannel('Controller Lab: Why (Not)?');
  return [
    channel,
    registerGuarded(services.log, 'controllerLab.whyNot', async (arg: unknown) => {
      const target = await targetOf(services, arg);
      if (!target) return undefined;
      const text = whyReport(controllerSessions.list(), target);
      channel.replace(`${text}\n`);
      channel.show(true);
      return text;
    }, 'Why (not)?'),
  ];
}

import type { EventDetails, TimelineEvent } from '../../shared/protocol/timeline.ts';
import { lineDiff, withContext } from '../lineDiff.ts';
import type { Lab } from '../model/lab.ts';
import type { ObjectVersion } from '../model/objectHistory.ts';
import { objectToYaml } from '../objectYaml.ts';

// What the timeline shows for a selected event: the object at that version and the diff to the
// version before it, from the informer's recent-version history.

const INFORMER_EVENT_NOTES: Partial<Record<TimelineEvent['type'], string>> = {
  BOOKMARK: 'A bookmark: the server says nothing changed up to this resourceVersion; the informer resumes from here after a reconnect.',
  RELIST: 'A relist: the informer read every object again at this resourceVersion and replaced its cache with the result (after a 410, an error or a failed streaming list; its first list is not marked).',
  EXPIRED: '410 Gone/Expired: the resourceVersion the informer asked to resume from is older than the server keeps. It must relist.',
  ERROR: 'The watch stream carried an ERROR event (a Status).',
  PERTURBATION: 'A check finding replayed in the debugger: this was done to the run here, at this resourceVersion; the debugger stopped at the first reconcile after it.',
  MISSED: 'This event reached the controller and enqueued nothing: every source that watches its kind filtered it out or mapped it to no request. Why (not)? goes through it step by step.',
};

export function objectKeyOfEvent(event: Pick<TimelineEvent, 'namespace' | 'name'>): string {
  return event.namespace ? `${event.namespace}/${event.name}` : event.name;
}

export function versionsForEvent(lab: Lab, event: TimelineEvent): { version?: ObjectVersion; previous?: ObjectVersion } {
  const informer = lab.findInformer(event.informer)?.informer;
  if (!informer || !event.name) return {};
  return informer.history.at(objectKeyOfEvent(event), event.resourceVersion);
}

export function eventDetails(lab: Lab, seq: number, showSecretValues: boolean, context = 4): EventDetails {
  const event = lab.timeline.events.get(seq);
  if (!event) throw new Error(`event #${seq} is no longer kept (the timeline holds the newest ${lab.timeline.events.capacity.toLocaleString('en-US')})`);
  if (!event.name || event.type === 'MISSED') return { event, note: [event.note, INFORMER_EVENT_NOTES[event.type]].filter(Boolean).join('\n\n') };
  const { version, previous } = versionsForEvent(lab, event);
  if (!version) {
    return { event, note: 'This version is no longer kept: the informer remembers the last few versions of each object, and only while it runs.' };
  }
  const yaml = objectToYaml(version.object as never, showSecretValues);
  if (!previous) return { event, yaml, note: event.type === 'ADDED' ? 'First version seen: nothing to compare with.' : 'The previous version is no longer kept.' };
  const before = objectToYaml(previous.object as never, showSecretValues);
  return { event, yaml, previousResourceVersion: previous.resourceVersion, diff: withContext(lineDiff(before, yaml), context) };
}

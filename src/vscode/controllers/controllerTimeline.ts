import type { ControllerShape } from '../../runtime/index.ts';
import { PERTURBATIONS } from '../../shared/protocol/timeline.ts';
import type { TimelineFeed } from '../model/timelineFeed.ts';
import type { NewTimelineEvent } from '../model/eventRing.ts';
import { InformerMarkers } from '../model/informerMarkers.ts';
import { controllerCacheLabel, probeTimelineEvent } from './probeTimelineEvent.ts';
import { reconcileSpan } from './reconcileSpan.ts';
import { MissedEvents, missNote, type MissedEvent } from './missedEvents.ts';
import { splitKey } from '../../shared/keys.ts';
import type { SessionLike } from './sessionLike.ts';

// A controller session's part of the lab's timeline: each reconcile as a span (its start, then its
// end replacing it), what the controller's own informers see as events, so its reconciles link to
// the events that triggered them and that their writes caused, and what was done to its run (a
// replayed check finding's perturbation) as a marker on a lane of its own, and its misses (events
// that reached it and enqueued nothing) as struck rings over those events, saying why.

/** `name`: the session's name as the tree shows it (read at each event: a Go manager's grows). */
export function publishToTimeline(session: SessionLike, feed: TimelineFeed, name: () => string): () => void {
  const markers = new InformerMarkers();
  // Which informer of the controller holds each kind (its lane), learnt from its probes.
  const informerOfKind = new Map<string, string>();
  const shapes = (): ControllerShape[] | undefined => (session.controllers?.length ? session.controllers : session.controller ? [session.controller as ControllerShape] : undefined);
  const misses = new MissedEvents((miss) => feed.events.push(missedTimelineEvent(name(), miss, informerOfKind.get(miss.kind))));
  const subscriptions = [
    session.on('reconcileStart', ({ record }) => feed.putSpan(reconcileSpan(record))),
    session.on('reconcileEnd', ({ record }) => feed.putSpan(reconcileSpan(record))),
    session.on('probe', ({ probe }) => {
      const event = probeTimelineEvent(name(), probe, markers, shapes(), session.target?.language === 'go');
      if (event?.kind && event.name && !informerOfKind.has(event.kind)) informerOfKind.set(event.kind, probe.informer);
      if (event) feed.events.push(event);
    }),
    session.on('fates', (batch) => {
      for (const fate of batch.decode()) misses.add(fate);
    }),
    session.on('perturbed', ({ what, resourceVersion, at }) => {
      const controller = name();
      feed.events.push({ at, informer: `controller:${controller}/${PERTURBATIONS}`, resource: PERTURBATIONS, namespace: '', name: '', type: 'PERTURBATION', resourceVersion, note: what, cluster: controllerCacheLabel(controller) });
    }),
  ];
  return () => {
    for (const s of subscriptions) s.dispose();
    misses.dispose();
  };
}

/** `Deployment` in `apps/v1` → `deployments.apps`: the informer a controller names it by, guessed. */
function guessInformer(kind: string, apiVersion: string): string {
  const lower = kind.toLowerCase();
  const plural = lower.endsWith('s') ? `${lower}es` : lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : `${lower}s`;
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return group ? `${plural}.${group}` : plural;
}

/** A miss on the lane of the object in the controller's cache, where its event is. */
export function missedTimelineEvent(controller: string, miss: MissedEvent, informer = guessInformer(miss.kind, miss.apiVersion)): NewTimelineEvent {
  return {
    at: miss.at,
    informer: `controller:${controller}/${informer}`,
    resource: informer.replace(/@.*$/, ''),
    ...splitKey(miss.key),
    type: 'MISSED',
    resourceVersion: miss.resourceVersion,
    kind: miss.kind,
    cluster: controllerCacheLabel(controller),
    note: missNote(miss),
  };
}

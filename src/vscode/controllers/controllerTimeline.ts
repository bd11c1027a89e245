import type { ControllerShape } from '../../runtime/index.ts';
import { PERTURBATIONS } from '../../shared/protocol/timeline.ts';
import type { TimelineFeed } from '../model/timelineFeed.ts';
import { InformerMarkers } from '../model/informerMarkers.ts';
import { controllerCacheLabel, probeTimelineEvent } from './probeTimelineEvent.ts';
import { reconcileSpan } from './reconcileSpan.ts';
import type { SessionLike } from './sessionLike.ts';

// A controller session's part of the lab's timeline: each reconcile as a span (its start, then its
// end replacing it), what the controller's own informers see as events, so its reconciles link to
// the events that triggered them and that their writes caused, and what was done to its run (a
// replayed check finding's perturbation) as a marker on a lane of its own.

/** `name`: the session's name as the tree shows it (read at each event: a Go manager's grows). */
export function publishToTimeline(session: SessionLike, feed: TimelineFeed, name: () => string): () => void {
  const markers = new InformerMarkers();
  const subscriptions = [
    session.on('reconcileStart', ({ record }) => feed.putSpan(reconcileSpan(record))),
    session.on('reconcileEnd', ({ record }) => feed.putSpan(reconcileSpan(record))),
    session.on('probe', ({ probe }) => {
      const shapes = session.controllers?.length ? session.controllers : session.controller ? [session.controller as ControllerShape] : undefined;
      const event = probeTimelineEvent(name(), probe, markers, shapes);
      if (event) feed.events.push(event);
    }),
    session.on('perturbed', ({ what, resourceVersion, at }) => {
      const controller = name();
      feed.events.push({ at, informer: `controller:${controller}/${PERTURBATIONS}`, resource: PERTURBATIONS, namespace: '', name: '', type: 'PERTURBATION', resourceVersion, note: what, cluster: controllerCacheLabel(controller) });
    }),
  ];
  return () => {
    for (const s of subscriptions) s.dispose();
  };
}

import type { Probe } from '../../informer/index.ts';
import type { ControllerShape } from '../../runtime/index.ts';
import { splitKey } from '../../shared/keys.ts';
import type { NewTimelineEvent } from '../model/eventRing.ts';
import type { InformerMarkers } from '../model/informerMarkers.ts';

const DELTA_TYPES = { Added: 'ADDED', Replaced: 'ADDED', Updated: 'MODIFIED', Deleted: 'DELETED' } as const;

/**
 * What the controller's own informers see, as timeline events (so a reconcile's triggers and the
 * events its writes caused are on the timeline even when no informer of the lab watches that
 * cluster): every cache delta (lists included) as ADDED/MODIFIED/DELETED, relists and 410s as
 * markers (`markers`, one per controller session, decides them). A Go program reports each event
 * its informers deliver once, as an `event` probe (`goProgram`): those are its cache's events.
 */
export function probeTimelineEvent(controller: string, probe: Probe, markers: InformerMarkers, shape?: ControllerShape | ControllerShape[], goProgram = false): NewTimelineEvent | undefined {
  const informer = `controller:${controller}/${probe.informer}`;
  const resource = probe.informer.replace(/@.*$/, '');
  // The controller's own cache is a view of its own cluster (often a sim of its debug session):
  // its lanes never merge with the lab's, and say whose they are.
  const cluster = controllerCacheLabel(controller);
  const kind = shape ? kindOfResource(shape, resource) : undefined;
  const base = { at: probe.at, informer, resource, cluster, ...(kind ? { kind } : {}) };
  const marker = markers.markerFor(probe);
  if (marker) return { ...base, namespace: '', name: '', ...marker };
  if (goProgram && probe.kind === 'event' && probe.key && (probe.type === 'ADDED' || probe.type === 'MODIFIED' || probe.type === 'DELETED')) {
    return { ...base, ...splitKey(probe.key), type: probe.type, resourceVersion: probe.resourceVersion };
  }
  // Watch events arrive as deltas too: once is enough. A resync changes nothing.
  if (probe.kind !== 'delta' || probe.type === 'Sync') return undefined;
  return { ...base, ...splitKey(probe.key), type: DELTA_TYPES[probe.type], resourceVersion: probe.resourceVersion };
}

export function controllerCacheLabel(controller: string): string {
  return `${controller} cache`;
}

/** `pods` → `Pod`, `replicasets.apps` → `ReplicaSet`: the kinds the controllers name, matched by their plural. */
export function kindOfResource(shape: ControllerShape | ControllerShape[], resource: string): string | undefined {
  const plural = resource.split('.')[0] ?? resource;
  for (const ref of [shape].flat().flatMap((s) => [s.forKind, ...s.owns, ...s.watches])) {
    const lower = ref.kind.toLowerCase();
    const guesses = [`${lower}s`, `${lower}es`, lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : ''];
    if (guesses.includes(plural)) return ref.kind;
  }
  return undefined;
}

import type { TimelineEventType } from '../../src/shared/protocol/timeline.ts';
import { TIMELINE_EVENT_TYPES } from '../../src/shared/protocol/timeline.ts';
import type { Lane } from './eventStore.ts';

// Which lanes and markers the timeline shows. Lane filters (resource, namespace, name) decide which
// lanes exist; the type filter decides which markers are drawn, and hides lanes left with none.

export interface TimelineFilters {
  /** '' = every resource. */
  resource: string;
  /** '' = every namespace. */
  namespace: string;
  /** Case-insensitive substring of the object's name; '' = any. */
  name: string;
  types: Record<TimelineEventType, boolean>;
}

export function allTypes(enabled = true): Record<TimelineEventType, boolean> {
  const types = {} as Record<TimelineEventType, boolean>;
  for (const t of TIMELINE_EVENT_TYPES) types[t] = enabled;
  return types;
}

export const NO_FILTERS: TimelineFilters = { resource: '', namespace: '', name: '', types: allTypes() };

export function laneMatches(lane: Lane, filters: TimelineFilters): boolean {
  if (filters.resource && lane.resource !== filters.resource) return false;
  if (lane.isInformerLane) {
    // Relists and 410s concern every object of the informer: shown unless the user narrowed to objects.
    if (filters.namespace || filters.name) return false;
  } else {
    if (filters.namespace && lane.namespace !== filters.namespace) return false;
    if (filters.name && !lane.name.toLowerCase().includes(filters.name.toLowerCase())) return false;
  }
  return shownEventCount(lane, filters) > 0;
}

/** How many of the lane's events the type filter lets through. */
export function shownEventCount(lane: Lane, filters: TimelineFilters): number {
  let n = 0;
  for (const t of TIMELINE_EVENT_TYPES) if (filters.types[t]) n += lane.counts[t];
  return n;
}

export function sameFilters(a: TimelineFilters, b: TimelineFilters): boolean {
  return (
    a.resource === b.resource &&
    a.namespace === b.namespace &&
    a.name === b.name &&
    TIMELINE_EVENT_TYPES.every((t) => a.types[t] === b.types[t])
  );
}

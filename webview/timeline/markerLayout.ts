import type { TimelineEvent } from '../../src/shared/protocol/timeline.ts';
import { MARKER_STYLES } from './markerStyles.ts';

// Where each marker of one lane goes on screen, shared by drawing and hit-testing. Two events
// closer than a marker's width (a create and the patch 200 ms after it, at most zooms) would be
// drawn over each other and the first would vanish. Instead each marker takes the first free slot
// at or right of its own time, at most MAX_NUDGE px away; past that it takes the last slot over
// (the latest event shows there), so a dense stretch reads as a run of markers a slot apart.
// An overlay (a miss) is drawn over the marker of the event it concerns, wherever that went.

/** A marker's width plus a gap: markers this far apart do not touch. */
export const MARKER_SLOT = 11;
/** How far right of its own time a marker may be drawn to stay clear of the one before. */
export const MAX_NUDGE = 2 * MARKER_SLOT;

export interface PlacedMarker {
  readonly event: TimelineEvent;
  /** Where it is drawn (CSS px). */
  readonly x: number;
}

/**
 * The markers of `events[from, to)` (time-ordered) that are shown, left to right. `xOf` maps a
 * time to a whole pixel.
 */
export function placeMarkers(
  events: readonly TimelineEvent[],
  from: number,
  to: number,
  shown: (e: TimelineEvent) => boolean,
  xOf: (at: number) => number,
): PlacedMarker[] {
  const placed: PlacedMarker[] = [];
  let lastSlot = -1;
  for (let i = from; i < to; i++) {
    const event = events[i] as TimelineEvent;
    if (!shown(event)) continue;
    const x = xOf(event.at);
    if (MARKER_STYLES[event.type].overlay) {
      const ringed = lastSlot >= 0 ? (placed[lastSlot] as PlacedMarker) : undefined;
      const over = ringed && ringed.event.resourceVersion === event.resourceVersion && ringed.x - x <= MAX_NUDGE;
      placed.push({ event, x: over ? ringed.x : x });
      continue;
    }
    const previous = lastSlot >= 0 ? (placed[lastSlot] as PlacedMarker).x : -Infinity;
    const slot = Math.max(x, previous + MARKER_SLOT);
    if (slot - x <= MAX_NUDGE) {
      lastSlot = placed.length;
      placed.push({ event, x: slot });
    } else {
      placed[lastSlot] = { event, x: previous };
    }
  }
  return placed;
}

/** The placed marker nearest `x` within `radius`; on a tie an overlay wins (it says why). */
export function markerAt(placed: readonly PlacedMarker[], x: number, radius: number): TimelineEvent | undefined {
  let best: PlacedMarker | undefined;
  for (const p of placed) {
    const d = Math.abs(p.x - x);
    if (d > radius) continue;
    const bestD = best ? Math.abs(best.x - x) : Infinity;
    if (d < bestD || (d === bestD && MARKER_STYLES[p.event.type].overlay)) best = p;
  }
  return best?.event;
}

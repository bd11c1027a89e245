import type { EventStore } from './eventStore.ts';
import { MARKER_STYLES } from './markerStyles.ts';
import type { TimelineFilters } from './filters.ts';
import type { Viewport } from './viewport.ts';

// The events-per-second plot. The times of the shown events (lanes the filter pass kept, types
// enabled) are collected once per store or filter change into a sorted array; a frame then counts
// each bin with two binary searches, so panning over 100,000 events costs O(bins × log n).

export interface RateBins {
  /** Events per second in each bin. */
  rates: Float64Array;
  max: number;
  binMs: number;
}

/**
 * Times of the object events the filters show, in order (the store keeps times non-decreasing).
 * An informer's own markers — bookmarks every few seconds, relists, 410s — are not changes to
 * objects: counted, they would be most of a quiet cluster's "events/s"; nor is a controller's miss
 * (drawn over the event it concerns).
 */
export function shownTimes(store: EventStore, filters: TimelineFilters): Float64Array {
  const out = new Float64Array(store.size);
  let n = 0;
  for (const { event, lane } of store.between(-Infinity, Infinity)) {
    if (lane.visible && !lane.isInformerLane && filters.types[event.type] && !MARKER_STYLES[event.type].overlay) out[n++] = event.at;
  }
  return out.subarray(0, n);
}

function lowerBound(times: Float64Array, value: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function rateBins(times: Float64Array, viewport: Viewport, bins: number): RateBins {
  const n = Math.max(1, Math.floor(bins));
  const rates = new Float64Array(n);
  const spanMs = Math.max(1, viewport.end - viewport.start);
  const binMs = spanMs / n;
  let max = 0;
  let from = lowerBound(times, viewport.start);
  for (let i = 0; i < n; i++) {
    // The last bin includes its right edge (an event exactly at viewport.end).
    const edge = i === n - 1 ? viewport.end + 1e-9 : viewport.start + (i + 1) * binMs;
    const to = lowerBound(times, edge);
    const rate = ((to - from) * 1000) / binMs;
    rates[i] = rate;
    if (rate > max) max = rate;
    from = to;
  }
  return { rates, max, binMs };
}

import type { EventStore } from './eventStore.ts';
import type { TimelineFilters } from './filters.ts';
import type { Viewport } from './viewport.ts';

// The events-per-second plot: shown events in the window, counted into equal bins and scaled to
// events per second. Lane visibility was decided by the filter pass (Lane.visible).

export interface RateBins {
  /** Events per second in each bin. */
  rates: Float64Array;
  max: number;
  binMs: number;
}

export function rateBins(store: EventStore, filters: TimelineFilters, viewport: Viewport, bins: number): RateBins {
  const n = Math.max(1, Math.floor(bins));
  const counts = new Float64Array(n);
  const spanMs = Math.max(1, viewport.end - viewport.start);
  const binMs = spanMs / n;
  for (const { event, lane } of store.between(viewport.start, viewport.end)) {
    if (!lane.visible || !filters.types[event.type]) continue;
    const i = Math.min(n - 1, Math.floor((event.at - viewport.start) / binMs));
    counts[i] = (counts[i] ?? 0) + 1;
  }
  let max = 0;
  for (let i = 0; i < n; i++) {
    const rate = ((counts[i] ?? 0) * 1000) / binMs;
    counts[i] = rate;
    if (rate > max) max = rate;
  }
  return { rates: counts, max, binMs };
}

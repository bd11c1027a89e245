// The visible time window and its arithmetic: zoom about an anchor, pan, clamp. Times are ms.

export interface Viewport {
  start: number;
  end: number;
}

export const MIN_SPAN_MS = 20;
export const MAX_SPAN_MS = 7 * 24 * 3600_000;

export function span(v: Viewport): number {
  return v.end - v.start;
}

/** Zooms by `factor` (< 1 zooms in) keeping `anchor` at the same place on screen. */
export function zoom(v: Viewport, factor: number, anchor = (v.start + v.end) / 2): Viewport {
  const next = Math.min(MAX_SPAN_MS, Math.max(MIN_SPAN_MS, span(v) * factor));
  const ratio = span(v) === 0 ? 0.5 : (anchor - v.start) / span(v);
  const start = anchor - next * ratio;
  return { start, end: start + next };
}

export function pan(v: Viewport, deltaMs: number): Viewport {
  return { start: v.start + deltaMs, end: v.end + deltaMs };
}

/** Keeps the span, puts `at` at the right edge less a small margin (follow-live). */
export function followTo(v: Viewport, at: number): Viewport {
  const s = span(v);
  const end = at + s * 0.03;
  return { start: end - s, end };
}

/** Pans so that `at` is inside, centring it when it was outside. */
export function reveal(v: Viewport, at: number): Viewport {
  if (at >= v.start && at <= v.end) return v;
  const s = span(v);
  return { start: at - s / 2, end: at + s / 2 };
}

/** A window covering [first, last] with a margin; at least MIN_SPAN_MS wide. */
export function fit(first: number, last: number): Viewport {
  const s = Math.max(1000, last - first);
  return { start: first - s * 0.03, end: last + s * 0.03 };
}

export function timeToX(v: Viewport, at: number, width: number): number {
  return ((at - v.start) / span(v)) * width;
}

export function xToTime(v: Viewport, x: number, width: number): number {
  return v.start + (x / width) * span(v);
}

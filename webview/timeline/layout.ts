// Geometry shared by drawing and hit-testing (CSS pixels).

export const GUTTER_WIDTH = 240;
export const AXIS_HEIGHT = 22;
export const ROW_HEIGHT = 20;
export const HIT_RADIUS = 6;

export interface Size {
  width: number;
  height: number;
}

/** Width of the time area (right of the lane labels). */
export function plotWidth(size: Size): number {
  return Math.max(1, size.width - GUTTER_WIDTH);
}

export function laneRowsFitting(size: Size): number {
  return Math.max(1, Math.floor((size.height - AXIS_HEIGHT) / ROW_HEIGHT));
}

/** Nice tick spacing: about one tick per `targetPx` pixels. */
export function tickStep(spanMs: number, widthPx: number, targetPx = 110): number {
  const raw = (spanMs / Math.max(1, widthPx)) * targetPx;
  const steps = [1, 2, 5, 10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000];
  return steps.find((s) => s >= raw) ?? 86_400_000;
}

export function formatTick(at: number, stepMs: number): string {
  const d = new Date(at);
  const hh = String(d.getHours()).padStart(2, '0');
  const mm = String(d.getMinutes()).padStart(2, '0');
  const ss = String(d.getSeconds()).padStart(2, '0');
  if (stepMs < 1000) return `${hh}:${mm}:${ss}.${String(d.getMilliseconds()).padStart(3, '0')}`;
  if (stepMs < 60_000) return `${hh}:${mm}:${ss}`;
  return `${hh}:${mm}`;
}

/** `850 ms`, `12.5 s`, `4 min 30 s`, `2 h 5 min`. */
export function formatSpan(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}

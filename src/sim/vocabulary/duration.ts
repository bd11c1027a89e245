// Durations in scenario files: `500ms`, `2s`, `1.5s`, `1m`, `1h`, or a plain number of milliseconds.

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds, or undefined when `value` is not a duration. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(value);
  if (!m) return undefined;
  return Math.round(Number(m[1]) * (UNITS[m[2] ?? 'ms'] ?? 1));
}

/**
 * The latest a scenario may schedule anything: a day. Past 2^31 ms (~24.8 days) Node's timers fire
 * at once (TimeoutOverflowWarning), which ran a step meant for "never" every millisecond.
 */
export const MAX_SCENARIO_TIME_MS = 24 * 3_600_000;

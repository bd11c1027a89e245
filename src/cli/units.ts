import { UsageError } from './args.ts';

// Durations and sizes as kubectl spells them on the command line: `500ms`, `30s`, `2m`, `1h`
// (a bare number is seconds, as kubectl's --request-timeout takes it); `16Mi`, `512Ki`, `1Gi` or
// a plain count.

const MAX_DURATION_MS = 24 * 3_600_000;
const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const SIZE_UNITS: Record<string, number> = { '': 1, k: 1000, ki: 1024, m: 1_000_000, mi: 1 << 20, g: 1_000_000_000, gi: 1 << 30 };

/** A duration in milliseconds; 0 stays 0 (the option's "never"). */
export function durationOption(name: string, value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m) throw new UsageError(`--${name} must be a duration such as 500ms, 30s or 2m (got "${value}")`);
  const ms = Math.round(Number(m[1]) * DURATION_UNITS[m[2] ?? 's']!);
  // Past 2^31 ms Node's timers fire at once: a limit meant as "never" would strike at once.
  if (ms > MAX_DURATION_MS) throw new UsageError(`--${name} must be at most 24h (got "${value}")`);
  return ms;
}

/** A positive size in bytes (or characters). */
export function sizeOption(name: string, value: string): number {
  const m = /^(\d+)([kmg]i?)?$/i.exec(value.trim());
  const n = m ? Number(m[1]) * SIZE_UNITS[(m[2] ?? '').toLowerCase()]! : NaN;
  if (!(n > 0)) throw new UsageError(`--${name} must be a size such as 16Mi or 65536 (got "${value}")`);
  return n;
}

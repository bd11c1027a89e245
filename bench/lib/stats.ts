// Small statistics for benchmarks: medians over repeated runs (machines here are shared and noisy).

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `n` with a unit suffix: 1.2k, 3.4M. */
export function si(n: number, digits = 1): string {
  if (!Number.isFinite(n)) return '–';
  const abs = Math.abs(n);
  if (abs >= 1e6) return `${(n / 1e6).toFixed(digits)}M`;
  if (abs >= 1e3) return `${(n / 1e3).toFixed(digits)}k`;
  return n.toFixed(abs < 10 ? digits : 0);
}

export function mb(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 1048576).toFixed(1)} MB` : '–';
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`;
}

export function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '–';
}

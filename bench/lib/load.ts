// Whether a run's ratios against the parse limit can be read: on a machine busy with other jobs
// they read high. The parse limit's CPU grows more under load than ours (its 16–64 MB young
// generation misses the caches the other jobs share; ours is 2 × 4 MB): at load 32 on 2 CPUs the
// same builds read 0.92× printing and 1.03× with `--output none`, where a quiet machine reads
// 0.80× and 0.89×.

/** A warning for a run whose load average (before or after) exceeded the machine's CPUs; undefined otherwise. */
export function loadCaveat(loadBefore: number, loadAfter: number, cpuCount: number): string | undefined {
  const load = Math.max(loadBefore, loadAfter);
  if (!(load > cpuCount)) return undefined;
  return (
    `Load average ${load.toFixed(1)} on ${cpuCount} CPU(s): other jobs shared the contenders' CPU. Under load the parse limit's CPU grows more than ours, ` +
    'so the ratios above read high: not a measure of the goal. Compare within one run, or run again on a quiet machine.'
  );
}

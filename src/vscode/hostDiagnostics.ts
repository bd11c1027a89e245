import { appendFileSync, openSync, closeSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

// For measuring the extension inside a real VS Code (bench/extensionHostPods.mjs): with
// CONTROLLER_LAB_DIAGNOSTICS_FILE set, the extension host appends one JSON line every 250 ms with
// the longest event-loop delay since the last line, its pid and its memory. Off (no timer, no file)
// unless the variable is set.

export const DIAGNOSTICS_FILE_VARIABLE = 'CONTROLLER_LAB_DIAGNOSTICS_FILE';
const INTERVAL_MS = 250;

export interface HostSample {
  at: number;
  pid: number;
  /** The longest event-loop delay since the previous sample (ms, 10 ms resolution). */
  loopMaxMs: number;
  rssBytes: number;
  heapUsedBytes: number;
}

/** Starts writing samples when the variable names a file; returns what stops it. */
export function startHostDiagnostics(env: NodeJS.ProcessEnv = process.env): () => void {
  const file = env[DIAGNOSTICS_FILE_VARIABLE];
  if (!file) return () => {};
  closeSync(openSync(file, 'a', 0o600));
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const timer = setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    const sample: HostSample = { at: Date.now(), pid: process.pid, loopMaxMs: delay.max / 1e6, rssBytes: rss, heapUsedBytes: heapUsed };
    delay.reset();
    try {
      appendFileSync(file, `${JSON.stringify(sample)}\n`);
    } catch {
      // A file that went away ends nothing but these samples.
    }
  }, INTERVAL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    delay.disable();
  };
}

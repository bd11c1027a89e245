import { appendFileSync, openSync, closeSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

// For measuring the extension inside a real VS Code (bench/extensionHostPods.mjs): with
// CONTROLLER_LAB_DIAGNOSTICS_FILE set, the extension host appends one JSON line every 250 ms with
// the longest event-loop delay since the last line, its pid and its memory. Off (no timer, no file)
// unless the variable is set.

export const DIAGNOSTICS_FILE_VARIABLE = 'CONTROLLER_LAB_DIAGNOSTICS_FILE';
/**
 * A directory: with it, also CPU profiles of the extension host, one file per 10 s (what a stall was
 * made of). Writing one takes the host ~0.2 s: it shows up as a stall of its own.
 */
export const CPU_PROFILE_DIR_VARIABLE = 'CONTROLLER_LAB_CPU_PROFILE_DIR';
const PROFILE_PIECE_MS = 10_000;
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
export function startHostDiagnostics(env: NodeJS.ProcessEnv = process.env, profilePieceMs = PROFILE_PIECE_MS): () => void {
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
  const stopProfiling = env[CPU_PROFILE_DIR_VARIABLE] ? startCpuProfiles(env[CPU_PROFILE_DIR_VARIABLE], profilePieceMs) : () => {};
  return () => {
    clearInterval(timer);
    delay.disable();
    stopProfiling();
  };
}

/** Profiles the process through its own inspector and writes a .cpuprofile (Chrome DevTools' format) every `pieceMs`. */
function startCpuProfiles(dir: string, pieceMs: number): () => void {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable', () => session.post('Profiler.start'));
  let piece = 0;
  const timer = setInterval(() => {
    session.post('Profiler.stop', (err, result) => {
      if (!err) {
        try {
          writeFileSync(join(dir, `extension-host-${process.pid}-${String(piece++).padStart(3, '0')}.cpuprofile`), JSON.stringify(result.profile), { mode: 0o600 });
        } catch {
          // A directory that went away ends nothing but the profiles.
        }
      }
      session.post('Profiler.start');
    });
  }, pieceMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    session.disconnect();
  };
}

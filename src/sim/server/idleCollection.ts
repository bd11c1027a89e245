import type { EventEmitter } from 'node:events';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A quiet server's garbage is given back. V8 collects its old generation when it grows, not when
// the process goes quiet: after a burst of large writes (150 ConfigMaps of 20,000 keys) the sim
// held 1.15 GB of RSS for 470 MB of live heap, and kept it while idle. Once a second without new
// requests, with the heap grown well past what the last collection left, a full collection runs
// (some 100 ms for 500 MB): the pages of the garbage go back to the system (RSS 600 MB there).

const CHECK_MS = 1000;

/**
 * The heap in use, from V8 alone: process.memoryUsage() also reads the RSS from /proc, which
 * throws EMFILE when connections have used up every file descriptor, and this runs on a timer,
 * where a throw ends the process.
 */
const heapUsed = (): number => getHeapStatistics().used_heap_size;
const MIN_GROWTH = 64 * 1024 * 1024;

/** Starts collecting when `server` is idle; returns how to stop. For a process of its own (the CLI's sim). */
export function collectGarbageWhenIdle(server: EventEmitter): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  let requests = 0;
  const count = () => void requests++;
  server.on('request', count);
  let seen = 0;
  let live = heapUsed();
  const timer = setInterval(() => {
    if (requests !== seen) {
      seen = requests;
      return;
    }
    const used = heapUsed();
    // Below what the last collection left: V8 collected meanwhile.
    if (used < live) live = used;
    if (used - live < Math.max(MIN_GROWTH, live / 4)) return;
    gc();
    live = heapUsed();
  }, CHECK_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('request', count);
  };
}

// Runs of a check, a few at a time: each run is mostly waiting (for a process to start, for the
// controller to go quiet), so two at once take little longer than one. Their results are handed
// back in the order the runs were planned, so a check's progress and findings read the same
// however the runs interleave.

/**
 * Starts `task(0)`, `task(1)`, … with at most `atOnce` running, each only while `mayStart()`
 * holds, and yields each result in index order. Stops starting at the first index `mayStart`
 * refuses; a caller that leaves the loop early waits, as it leaves, for the tasks still running.
 */
export async function* inOrder<T>(count: number, atOnce: number, mayStart: () => boolean, task: (index: number) => Promise<T>): AsyncGenerator<T> {
  const running: Promise<T>[] = [];
  let started = 0;
  let stopped = false;
  const fill = () => {
    while (!stopped && started < count && running.length < atOnce) {
      if (!mayStart()) {
        stopped = true;
        return;
      }
      running.push(task(started++));
    }
  };
  try {
    fill();
    while (running.length > 0) {
      const result = await running.shift()!;
      fill();
      yield result;
    }
  } finally {
    // A caller that stops early (a failed reference run) still waits for what it started.
    stopped = true;
    await Promise.allSettled(running);
  }
}

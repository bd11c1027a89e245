import { Turns } from './turns.ts';

// Runs of a check, a few at a time: each run is mostly waiting (for a process to start, for the
// controller to go quiet), so a few at once take little longer than one. Their results are handed
// back in the order the runs were planned, so a check's progress and findings read the same
// however the runs interleave.
//
// `ahead` more runs may get ready meanwhile (a warm pool): a run starts its cluster and its
// controller, waits until the controller has synced, and only then waits for its turn to step the
// scenario. So the next run's process start and cache sync overlap the end of the current ones
// (their wait to be sure the controller is quiet), instead of following it.

/** What a task is given: `turn()` resolves once it may go on past its start (one of `atOnce`). */
export type Task<T> = (index: number, turn: () => Promise<void>) => Promise<T>;

/**
 * Starts `task(0)`, `task(1)`, … with at most `atOnce` past their turn and `ahead` more getting
 * ready, each only while `mayStart()` holds, and yields each result in index order. Stops starting
 * at the first index `mayStart` refuses; a caller that leaves the loop early waits, as it leaves,
 * for the tasks still running.
 */
export async function* inOrder<T>(count: number, atOnce: number, mayStart: () => boolean, task: Task<T>, ahead = 0): AsyncGenerator<T> {
  const turns = new Turns(atOnce);
  const results: Promise<T>[] = [];
  // Tasks not yet ended: a task that ended waits only to be handed back, and takes no place (a slow
  // run early in the plan does not hold back the runs after it).
  let unfinished = 0;
  let stopped = false;
  const launch = (index: number): Promise<T> => {
    let held = false;
    const turn = async () => {
      if (held) return;
      await turns.take(index);
      held = true;
    };
    unfinished++;
    // A task that ends without calling turn() (it failed to start) had no turn to give back.
    return task(index, turn).finally(() => {
      if (held) turns.give();
      unfinished--;
      fill();
    });
  };
  function fill(): void {
    while (!stopped && results.length < count && unfinished < atOnce + ahead) {
      if (!mayStart()) {
        stopped = true;
        return;
      }
      const result = launch(results.length);
      // Handed back in order below; a failure meanwhile is not an unhandled rejection.
      result.catch(() => {});
      results.push(result);
    }
  }
  try {
    fill();
    for (let next = 0; next < results.length; next++) yield await results[next]!;
  } finally {
    // A caller that stops early (a failed reference run) still waits for what it started.
    stopped = true;
    await Promise.allSettled(results);
  }
}

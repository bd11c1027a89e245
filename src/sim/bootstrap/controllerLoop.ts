import type { Clock } from '../../shared/clock.ts';
import { createWorkQueue, type WorkQueue } from '../../workqueue/index.ts';

// One worker over a rate-limited work queue, as each of kube-controller-manager's controllers runs:
// a key is synced by one call at a time; a failed sync is retried with per-key backoff. Keys may
// be queued before the worker starts (it starts once the informers have synced).

export interface ControllerLoop {
  readonly queue: WorkQueue<string>;
  /** Starts the worker. */
  run(): void;
  /** Ends the worker; keys still queued are dropped. */
  stop(): void;
}

export function controllerLoop(name: string, clock: Clock, sync: (key: string) => void, onError: (err: unknown) => void): ControllerLoop {
  const queue = createWorkQueue<string>({ name, clock });
  const work = async () => {
    for (;;) {
      const next = await queue.get();
      if (next.shutdown) return;
      try {
        sync(next.item);
        queue.forget(next.item);
      } catch (err) {
        onError(err);
        queue.addRateLimited(next.item);
      } finally {
        queue.done(next.item);
      }
    }
  };
  return { queue, run: () => void work(), stop: () => queue.shutDown() };
}

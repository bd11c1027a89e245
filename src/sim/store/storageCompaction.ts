import type { Clock, TimerHandle } from '../../shared/clock.ts';
import type { MvccStore } from './mvccStore.ts';

// kube-apiserver compacts etcd every five minutes, to the revision its previous round wrote: each
// round puts its mark (a write, so the revision moves on even on an idle cluster), then compacts to
// the mark before. A list at a resourceVersion older than that — a continue token, an Exact list —
// is then a 410 (a continue token's with an inconsistent token to carry on from); watches, served
// from the watch cache's window, are not affected.

export const STORAGE_COMPACTION_INTERVAL_MS = 5 * 60_000;

/** Starts the rounds; the handle stops them. */
export function startStorageCompaction(mvcc: MvccStore, clock: Clock, intervalMs = STORAGE_COMPACTION_INTERVAL_MS): TimerHandle {
  let previousMark: number | undefined;
  let timer: TimerHandle | undefined;
  let stopped = false;
  const round = (): void => {
    if (stopped) return;
    const mark = mvcc.advanceRevision();
    if (previousMark !== undefined) mvcc.compactStorage(previousMark);
    previousMark = mark;
    timer = clock.setTimer(intervalMs, round);
  };
  timer = clock.setTimer(intervalMs, round);
  return {
    cancel: () => {
      stopped = true;
      timer?.cancel();
    },
  };
}

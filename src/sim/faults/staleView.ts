import type { Clock, TimerHandle } from '../../shared/clock.ts';
import { parseResourceVersion } from '../store/resourceVersionParam.ts';
import type { ListRequest } from '../store/types.ts';

// The stale-view fault: for a while, one user talks to an API server whose watch cache lags, as a
// restarted controller may meet behind a load balancer of HA API servers. Its lists are answered
// as of an older resourceVersion (served from the watch-cache window as an exact-RV list is: 410
// when that is compacted away), its watches from the initial state start there too, and its
// watch events are withheld until the window ends, then delivered in order.

export interface StaleViewState {
  readonly user: string;
  readonly resourceVersion: number;
  /** When the window ends (ms on the cluster's clock). */
  readonly until: number;
}

interface Window {
  readonly resourceVersion: number;
  readonly until: number;
  readonly timer: TimerHandle;
}

export class StaleViews {
  private readonly windows = new Map<string, Window>();
  private readonly clock: Clock;
  private readonly ended: (user: string) => void;

  /** `ended`: told when a user's window closes (its withheld events are then delivered). */
  constructor(clock: Clock, ended: (user: string) => void) {
    this.clock = clock;
    this.ended = ended;
  }

  /** Opens a window for `user` (replacing one it has): `forMs` from now, as of `resourceVersion`. */
  arm(user: string, resourceVersion: number, forMs: number): void {
    this.windows.get(user)?.timer.cancel();
    const timer = this.clock.setTimer(forMs, () => {
      if (this.windows.get(user)?.timer !== timer) return;
      this.windows.delete(user);
      this.ended(user);
    });
    this.windows.set(user, { resourceVersion, until: this.clock.now() + forMs, timer });
  }

  /** The resourceVersion `user`'s view lags at, while its window is open. */
  of(user: string): number | undefined {
    return this.windows.get(user)?.resourceVersion;
  }

  /** Closes every window (the caller wakes the watchers). */
  clear(): void {
    for (const w of this.windows.values()) w.timer.cancel();
    this.windows.clear();
  }

  state(): StaleViewState[] {
    return [...this.windows].map(([user, w]) => ({ user, resourceVersion: w.resourceVersion, until: w.until }));
  }
}

/**
 * A list as a cache lagging at `asOf` answers it: a list of the latest state (RV unset), of any
 * state (`0`) or of one not older than N is answered exactly as of `asOf`, or of N when N is later
 * (never older than asked); `0` still ignores `limit`, as the watch cache does. An exact list and
 * a continued one are what they are (the first page of a lagging list pins its continuations).
 */
export function laggingListRequest(request: ListRequest, asOf: number): ListRequest {
  if (request.continue || request.resourceVersionMatch === 'Exact') return request;
  let rv: number | undefined;
  try {
    rv = parseResourceVersion(request.resourceVersion);
  } catch {
    return request; // the list refuses it as it would anyway
  }
  if (rv !== undefined && rv > asOf) return { ...request, resourceVersionMatch: 'Exact' };
  const lagging: ListRequest = { ...request, resourceVersion: String(asOf), resourceVersionMatch: 'Exact' };
  if (rv === 0) delete lagging.limit;
  return lagging;
}

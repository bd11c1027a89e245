import type { Clock } from '../shared/clock.ts';
import { Backoff } from './backoff.ts';

// When to list again after the server ended a watch with 410 Gone (or called our resourceVersion
// too large): as client-go's reflector, after its backoff — 0.8 s doubling to 30 s, with jitter,
// reset after 2 min without one — before every list that follows a lost watch, the first included
// (reflector.go: RunWithContext runs ListAndWatch under delayHandler.Until, which waits after each
// return). A server that lists fine but expires every watch is so never listed in a hot loop.

/** The 410 in a row at which the reflector says once what the server keeps doing. */
export const WARN_AFTER_EXPIRIES = 3;

const RESET_AFTER_MS = 120_000;

export interface RelistPace {
  delayMs: number;
  attempt: number;
  /** The 410s in a row, this one included (a run ends after 2 min without one). */
  inARow: number;
  /** Time from the first of them to this one. */
  sinceFirstMs: number;
  /** True once per run: time to say what the server keeps doing. */
  warn: boolean;
}

export class RelistPacing {
  private readonly clock: Clock;
  private readonly backoff: Backoff;
  private inARow = 0;
  private firstAt = 0;
  private lastAt: number | undefined;

  constructor(clock: Clock, random: () => number) {
    this.clock = clock;
    this.backoff = new Backoff(clock, random, { resetAfterMs: RESET_AFTER_MS });
  }

  /** Counts one more 410 and says how long to wait before the list that answers it. */
  next(): RelistPace {
    const now = this.clock.now();
    if (this.lastAt === undefined || now - this.lastAt >= RESET_AFTER_MS) {
      this.inARow = 0;
      this.firstAt = now;
    }
    this.lastAt = now;
    this.inARow++;
    const { delayMs, attempt } = this.backoff.next();
    return { delayMs, attempt, inARow: this.inARow, sinceFirstMs: now - this.firstAt, warn: this.inARow === WARN_AFTER_EXPIRIES };
  }
}

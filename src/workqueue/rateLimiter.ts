import { realClock } from '../shared/clock.ts';
import type { Clock } from '../shared/clock.ts';

// client-go default_rate_limiters.go: how long an item waits before it is retried.

export interface RateLimiter<T> {
  /** The delay before `item` may be retried; counts one more failure for it. */
  when(item: T): number;
  /** `item` succeeded: its failure history is cleared. */
  forget(item: T): void;
  /** Failures counted for `item` since it was last forgotten. */
  numRequeues(item: T): number;
}

/** Per item: base × 2^failures, capped (client-go: 5 ms → 1000 s). */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();
  private readonly baseMs: number;
  private readonly maxMs: number;

  constructor(baseMs = 5, maxMs = 1_000_000) {
    this.baseMs = baseMs;
    this.maxMs = maxMs;
  }

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    return Math.min(this.maxMs, this.baseMs * 2 ** exp);
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * One token bucket for all items (golang.org/x/time/rate as client-go uses it): `burst` retries at
 * once, then `qps` per second. Each call reserves a token, possibly in the future.
 */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private readonly qps: number;
  private readonly burst: number;
  private readonly clock: Clock;
  private tokens: number;
  private last: number;

  constructor(qps = 10, burst = 100, clock: Clock = realClock) {
    this.qps = qps;
    this.burst = burst;
    this.clock = clock;
    this.tokens = burst;
    this.last = clock.now();
  }

  when(_item: T): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.qps) * 1000);
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** Fast retries for the first `maxFastAttempts` failures, slow ones after. */
export class ItemFastSlowRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();
  private readonly fastMs: number;
  private readonly slowMs: number;
  private readonly maxFastAttempts: number;

  constructor(fastMs: number, slowMs: number, maxFastAttempts: number) {
    this.fastMs = fastMs;
    this.slowMs = slowMs;
    this.maxFastAttempts = maxFastAttempts;
  }

  when(item: T): number {
    const n = (this.failures.get(item) ?? 0) + 1;
    this.failures.set(item, n);
    return n <= this.maxFastAttempts ? this.fastMs : this.slowMs;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** The longest delay any of `limiters` asks for (each one counts the failure). */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(item));
    return max;
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/** client-go DefaultControllerRateLimiter: per-item 5 ms → 1000 s, max-combined with 10 qps / burst 100. */
export function defaultControllerRateLimiter<T>(clock: Clock = realClock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(new ItemExponentialFailureRateLimiter<T>(5, 1_000_000), new BucketRateLimiter<T>(10, 100, clock));
}

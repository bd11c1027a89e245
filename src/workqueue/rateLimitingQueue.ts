import { BasicDelayingQueue } from './delayingQueue.ts';
import type { DelayingQueue } from './delayingQueue.ts';
import type { QueueOptions } from './queue.ts';
import { defaultControllerRateLimiter } from './rateLimiter.ts';
import type { RateLimiter } from './rateLimiter.ts';

// client-go rate_limiting_queue.go: the queue controllers use. A failed item goes back through
// `addRateLimited` (its delay grows with each failure); a succeeded one is `forget`-ed.

export interface RateLimitingQueue<T> extends DelayingQueue<T> {
  /** Adds `item` once the rate limiter allows it; counts a retry. */
  addRateLimited(item: T): void;
  /** Clears `item`'s failure history (call after it succeeded; it does not remove it from the queue). */
  forget(item: T): void;
  /** Failures counted for `item` since it was last forgotten. */
  numRequeues(item: T): number;
}

export interface RateLimitingQueueOptions<T> extends QueueOptions {
  /** Default: per-item exponential 5 ms → 1000 s, max-combined with a 10 qps / burst 100 bucket. */
  rateLimiter?: RateLimiter<T>;
}

export class BasicRateLimitingQueue<T> extends BasicDelayingQueue<T> implements RateLimitingQueue<T> {
  private readonly limiter: RateLimiter<T>;

  constructor(options: RateLimitingQueueOptions<T> = {}) {
    super(options);
    this.limiter = options.rateLimiter ?? defaultControllerRateLimiter<T>(this.clock);
  }

  addRateLimited(item: T): void {
    if (this.shuttingDown()) return;
    const delayMs = this.limiter.when(item);
    this.retries++;
    if (this.hasListeners()) this.emit({ kind: 'rateLimited', item, delayMs, retries: this.limiter.numRequeues(item) });
    this.schedule(item, delayMs, 'rateLimited');
  }

  forget(item: T): void {
    this.limiter.forget(item);
    if (this.hasListeners()) this.emit({ kind: 'forget', item });
  }

  numRequeues(item: T): number {
    return this.limiter.numRequeues(item);
  }

  protected override retriesOf(item: T): number {
    return this.limiter.numRequeues(item);
  }
}

export function createRateLimitingQueue<T>(options: RateLimitingQueueOptions<T> = {}): RateLimitingQueue<T> {
  return new BasicRateLimitingQueue<T>(options);
}

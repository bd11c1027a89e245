// The workqueue's public API (client-go util/workqueue): a deduplicating, exclusive work queue, a
// delaying layer (`addAfter`) and a rate-limiting layer (`addRateLimited`, `forget`).

export { BasicQueue, createQueue } from './queue.ts';
export type {
  Queue,
  QueueOptions,
  GetResult,
  QueueMetrics,
  DurationSummary,
  QueueItemState,
  QueueItemStateKind,
  QueueEvent,
  QueueEventListener,
} from './queue.ts';
export { BasicDelayingQueue, createDelayingQueue } from './delayingQueue.ts';
export type { DelayingQueue } from './delayingQueue.ts';
export {
  ItemExponentialFailureRateLimiter,
  BucketRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from './rateLimiter.ts';
export type { RateLimiter } from './rateLimiter.ts';
export { BasicRateLimitingQueue, createRateLimitingQueue } from './rateLimitingQueue.ts';
export type { RateLimitingQueue, RateLimitingQueueOptions } from './rateLimitingQueue.ts';

/** The queue a controller uses: rate limited, delaying, deduplicating. */
export { createRateLimitingQueue as createWorkQueue } from './rateLimitingQueue.ts';
export type { RateLimitingQueue as WorkQueue } from './rateLimitingQueue.ts';

import { realClock } from '../shared/clock.ts';
import type { Clock } from '../shared/clock.ts';

// client-go util/workqueue queue.go. The guarantees (doc.go):
// - Fair: items are handed out in the order they were added.
// - Stingy: an item added many times before a worker gets it is handed out once.
// - Exclusive: an item is never handed to two workers at once; added again while being processed,
//   it is handed out again only after `done`.
// - Shutdown: after `shutDown()` adds are ignored; `get` still hands out what is queued, then
//   reports shutdown.
// Invariants: an item is in `queue` iff it is in `dirty` and not in `processing` (up to the moment a
// worker takes it); `dirty` = "needs processing"; `processing` = "a worker holds it".

export type GetResult<T> = { item: T; shutdown: false } | { item: undefined; shutdown: true };

export interface DurationSummary {
  count: number;
  sumMs: number;
  maxMs: number;
}

export interface QueueMetrics {
  name: string;
  /** Items waiting to be handed out. */
  depth: number;
  /** Every `add` (including deduplicated ones). */
  adds: number;
  /** Rate-limited re-adds (`addRateLimited`). */
  retries: number;
  /** Time items waited in the queue before a worker got them. */
  latency: DurationSummary;
  /** Time from `get` to `done`. */
  workDuration: DurationSummary;
  /** Items being processed now, and how long the current ones have run in total / at most. */
  processing: number;
  unfinishedWorkMs: number;
  longestRunningMs: number;
  /** Items waiting for `addAfter` / rate limiting to let them in. */
  waiting: number;
}

export type QueueItemStateKind = 'queued' | 'processing' | 'waiting';

/** One item's state, for the debugger and views. An item can be processing and waiting at once. */
export interface QueueItemState<T> {
  item: T;
  state: QueueItemStateKind;
  /** When it entered this state (ms since epoch). */
  since: number;
  /** `waiting`: when it will be added. */
  until?: number;
  /** `waiting`: why — a rate-limited retry (backoff) or a requested delay (`addAfter`). */
  reason?: 'rateLimited' | 'addAfter';
  /** Rate-limited retries so far (`numRequeues`). */
  retries: number;
  /** `processing`: it was added again and will be handed out after `done`. */
  requeued?: boolean;
}

export type QueueEvent<T> = { at: number; queue: string; item: T } & (
  | { kind: 'add'; deduplicated: boolean }
  | { kind: 'get'; waitedMs: number }
  | { kind: 'done'; workMs: number; requeued: boolean }
  /** A requested delay; a rate-limited retry reports `rateLimited` instead (never both). */
  | { kind: 'addAfter'; delayMs: number }
  | { kind: 'rateLimited'; delayMs: number; retries: number }
  | { kind: 'forget' }
);

export type QueueEventListener<T> = (event: QueueEvent<T>) => void;

export interface Queue<T> {
  readonly name: string;
  /** Marks `item` as needing processing. Deduplicated while queued; ignored after shutdown. */
  add(item: T): void;
  /** Items waiting to be handed out. */
  len(): number;
  /** The next item, as soon as one is available; `shutdown: true` once shut down and empty. */
  get(): Promise<GetResult<T>>;
  /** The worker finished `item`; if it was added meanwhile, it is queued again now. */
  done(item: T): void;
  /** Ignores new adds; waiting `get`s resolve with shutdown (queued items are still handed out). */
  shutDown(): void;
  /** Like shutDown, and resolves once every item being processed is `done`. */
  shutDownWithDrain(): Promise<void>;
  shuttingDown(): boolean;
  metrics(): QueueMetrics;
  /** Every item's state; with `limit`, only the first `limit` (cost O(limit), not O(queue)). */
  snapshot(limit?: number): QueueItemState<T>[];
  /** One item's state (undefined: not in the queue), in O(1): processing wins over queued over waiting. */
  stateOf(item: T): QueueItemState<T> | undefined;
  onEvent(listener: QueueEventListener<T>): () => void;
}

export interface QueueOptions {
  name?: string;
  clock?: Clock;
}

function summary(): DurationSummary {
  return { count: 0, sumMs: 0, maxMs: 0 };
}

function observe(s: DurationSummary, ms: number): void {
  s.count++;
  s.sumMs += ms;
  if (ms > s.maxMs) s.maxMs = ms;
}

export class BasicQueue<T> implements Queue<T> {
  readonly name: string;
  protected readonly clock: Clock;
  private queue: T[] = [];
  private head = 0;
  /** item → when it was (first) added while not processing: queue latency. */
  private readonly dirty = new Map<T, number>();
  /** item → when a worker got it. */
  private readonly processing = new Map<T, number>();
  private waiters: ((result: GetResult<T>) => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  private shutting = false;
  private listeners: QueueEventListener<T>[] = [];
  protected adds = 0;
  protected retries = 0;
  private readonly latency = summary();
  private readonly workDuration = summary();

  constructor(options: QueueOptions = {}) {
    this.name = options.name ?? 'queue';
    this.clock = options.clock ?? realClock;
  }

  add(item: T): void {
    if (this.shutting) return;
    this.adds++;
    const deduplicated = this.dirty.has(item);
    if (this.listeners.length > 0) this.emit({ kind: 'add', item, deduplicated });
    if (deduplicated) return;
    this.dirty.set(item, this.clock.now());
    if (this.processing.has(item)) return;
    this.enqueue(item);
  }

  len(): number {
    return this.queue.length - this.head;
  }

  get(): Promise<GetResult<T>> {
    if (this.len() > 0) return Promise.resolve({ item: this.take(), shutdown: false });
    if (this.shutting) return Promise.resolve({ item: undefined, shutdown: true });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(item: T): void {
    const startedAt = this.processing.get(item);
    if (startedAt === undefined) return;
    this.processing.delete(item);
    const workMs = this.clock.now() - startedAt;
    observe(this.workDuration, workMs);
    const requeued = this.dirty.has(item);
    if (this.listeners.length > 0) this.emit({ kind: 'done', item, workMs, requeued });
    if (requeued) {
      // Its wait for a worker starts now, not when it was added during processing.
      this.dirty.set(item, this.clock.now());
      this.enqueue(item);
    }
    if (this.processing.size === 0 && this.drainWaiters.length > 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }

  shutDown(): void {
    this.shutting = true;
    this.onShutDown();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w({ item: undefined, shutdown: true });
  }

  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  shuttingDown(): boolean {
    return this.shutting;
  }

  metrics(): QueueMetrics {
    const now = this.clock.now();
    let unfinishedWorkMs = 0;
    let longestRunningMs = 0;
    for (const startedAt of this.processing.values()) {
      const ms = now - startedAt;
      unfinishedWorkMs += ms;
      if (ms > longestRunningMs) longestRunningMs = ms;
    }
    return {
      name: this.name,
      depth: this.len(),
      adds: this.adds,
      retries: this.retries,
      latency: { ...this.latency },
      workDuration: { ...this.workDuration },
      processing: this.processing.size,
      unfinishedWorkMs,
      longestRunningMs,
      waiting: this.waitingCount(),
    };
  }

  snapshot(limit = Number.POSITIVE_INFINITY): QueueItemState<T>[] {
    const out: QueueItemState<T>[] = [];
    for (let i = this.head; i < this.queue.length && out.length < limit; i++) {
      const item = this.queue[i]!;
      out.push({ item, state: 'queued', since: this.dirty.get(item) ?? 0, retries: this.retriesOf(item) });
    }
    for (const [item, since] of this.processing) {
      if (out.length >= limit) break;
      out.push({ item, state: 'processing', since, retries: this.retriesOf(item), requeued: this.dirty.has(item) });
    }
    if (out.length < limit) out.push(...this.waitingStates(limit - out.length));
    return out;
  }

  stateOf(item: T): QueueItemState<T> | undefined {
    const started = this.processing.get(item);
    if (started !== undefined) return { item, state: 'processing', since: started, retries: this.retriesOf(item), requeued: this.dirty.has(item) };
    const since = this.dirty.get(item);
    if (since !== undefined) return { item, state: 'queued', since, retries: this.retriesOf(item) };
    return this.waitingStateOf(item);
  }

  onEvent(listener: QueueEventListener<T>): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  // Extension points for the delaying and rate-limiting layers.
  protected onShutDown(): void {}
  protected waitingCount(): number {
    return 0;
  }
  protected waitingStates(_limit: number): QueueItemState<T>[] {
    return [];
  }
  protected waitingStateOf(_item: T): QueueItemState<T> | undefined {
    return undefined;
  }
  protected retriesOf(_item: T): number {
    return 0;
  }

  protected hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  protected emit(event: DistributiveOmit<QueueEvent<T>, 'at' | 'queue'>): void {
    const full = { ...event, at: this.clock.now(), queue: this.name } as QueueEvent<T>;
    for (const l of this.listeners) {
      try {
        l(full);
      } catch {
        // Observers never break the queue.
      }
    }
  }

  private enqueue(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      // Hand it over at once, so no other `get` can take it between now and the waiter waking up.
      waiter({ item: this.start(item), shutdown: false });
      return;
    }
    this.queue.push(item);
  }

  private take(): T {
    const item = this.queue[this.head]!;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return this.start(item);
  }

  private start(item: T): T {
    const now = this.clock.now();
    const addedAt = this.dirty.get(item) ?? now;
    this.dirty.delete(item);
    this.processing.set(item, now);
    const waitedMs = now - addedAt;
    observe(this.latency, waitedMs);
    if (this.listeners.length > 0) this.emit({ kind: 'get', item, waitedMs });
    return item;
  }
}

type DistributiveOmit<U, K extends PropertyKey> = U extends unknown ? Omit<U, K> : never;

export function createQueue<T>(options: QueueOptions = {}): Queue<T> {
  return new BasicQueue<T>(options);
}

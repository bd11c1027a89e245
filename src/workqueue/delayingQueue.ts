import type { TimerHandle } from '../shared/clock.ts';
import { BasicQueue } from './queue.ts';
import type { Queue, QueueItemState, QueueOptions } from './queue.ts';

// client-go delaying_queue.go: `addAfter` holds an item back until its time comes. An item already
// waiting keeps the earlier of its two ready times (adding it sooner wins, later never delays it).

export interface DelayingQueue<T> extends Queue<T> {
  /** Adds `item` after `delayMs` (at once when ≤ 0). Ignored after shutdown. */
  addAfter(item: T, delayMs: number): void;
}

interface Waiting {
  since: number;
  readyAt: number;
  timer: TimerHandle;
  reason: 'addAfter' | 'rateLimited';
}

export class BasicDelayingQueue<T> extends BasicQueue<T> implements DelayingQueue<T> {
  private readonly waiting = new Map<T, Waiting>();

  constructor(options: QueueOptions = {}) {
    super(options);
  }

  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown()) return;
    if (this.hasListeners()) this.emit({ kind: 'addAfter', item, delayMs });
    this.schedule(item, delayMs, 'addAfter');
  }

  /** addAfter without its event: the rate-limiting layer reports its own. */
  protected schedule(item: T, delayMs: number, reason: Waiting['reason']): void {
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    const now = this.clock.now();
    const readyAt = now + delayMs;
    const existing = this.waiting.get(item);
    if (existing) {
      if (existing.readyAt <= readyAt) return;
      existing.timer.cancel();
    }
    const timer = this.clock.setTimer(delayMs, () => {
      this.waiting.delete(item);
      this.add(item);
    });
    this.waiting.set(item, { since: existing?.since ?? now, readyAt, timer, reason });
  }

  protected override onShutDown(): void {
    for (const w of this.waiting.values()) w.timer.cancel();
    this.waiting.clear();
  }

  protected override waitingCount(): number {
    return this.waiting.size;
  }

  protected override waitingStateOf(item: T): QueueItemState<T> | undefined {
    const w = this.waiting.get(item);
    return w && { item, state: 'waiting', since: w.since, until: w.readyAt, reason: w.reason, retries: this.retriesOf(item) };
  }

  protected override waitingStates(limit: number): QueueItemState<T>[] {
    const out: QueueItemState<T>[] = [];
    for (const [item, w] of this.waiting) {
      if (out.length >= limit) break;
      out.push({ item, state: 'waiting', since: w.since, until: w.readyAt, reason: w.reason, retries: this.retriesOf(item) });
    }
    return out;
  }
}

export function createDelayingQueue<T>(options: QueueOptions = {}): DelayingQueue<T> {
  return new BasicDelayingQueue<T>(options);
}

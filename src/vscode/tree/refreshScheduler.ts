import type { Clock, TimerHandle } from '../../shared/clock.ts';

// Coalesces tree refreshes: elements marked dirty are fired together at most once per interval
// (default 200 ms, so ≤ 5 refreshes/s however many events arrive). Too many dirty elements at
// once become one full refresh, which is cheaper for VS Code than thousands of single ones.

export class RefreshScheduler<T> {
  private readonly dirty = new Set<T>();
  private all = false;
  private timer: TimerHandle | undefined;
  private lastFlush = -Infinity;
  private readonly fire: (items: T[] | undefined) => void;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly maxItems: number;
  /** Flushes so far (for tests and the status of the view). */
  flushes = 0;

  constructor(options: { fire: (items: T[] | undefined) => void; clock: Clock; intervalMs?: number; maxItems?: number }) {
    this.fire = options.fire;
    this.clock = options.clock;
    this.intervalMs = options.intervalMs ?? 200;
    this.maxItems = options.maxItems ?? 500;
  }

  mark(item: T): void {
    if (!this.all) this.dirty.add(item);
    this.schedule();
  }

  markAll(): void {
    this.all = true;
    this.dirty.clear();
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastFlush + this.intervalMs - this.clock.now());
    this.timer = this.clock.setTimer(wait, () => this.flush());
  }

  flush(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (!this.all && this.dirty.size === 0) return;
    const items = this.all || this.dirty.size > this.maxItems ? undefined : [...this.dirty];
    this.all = false;
    this.dirty.clear();
    this.lastFlush = this.clock.now();
    this.flushes++;
    this.fire(items);
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}

import type { Stored } from './storedObject.ts';

// The watch cache's window: the most recent events of one resource in a ring buffer. Events are
// appended in resourceVersion order, so lookups by RV are binary searches. Each event is weighed
// (the bytes of the version it keeps), so the store can bound the bytes of every window together.

export interface HistoryEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  rv: number;
  /** The new state; for DELETED, the last state carrying the delete's RV. */
  object: Stored;
  /** The state before (MODIFIED, DELETED). */
  prev?: Stored;
  /** `prev` carrying this event's RV: what a watcher sees when the object leaves its selector. Built lazily. */
  leftSelector?: Stored;
}

export class History {
  private readonly ring: (HistoryEvent | undefined)[];
  private readonly weights: number[];
  private start = 0;
  private size = 0;
  /** The weights of the events held. */
  bytes = 0;
  /** Every event with rv > `windowStart` is still here. */
  windowStart: number;

  constructor(capacity: number, windowStart: number) {
    this.ring = new Array<HistoryEvent | undefined>(Math.max(1, capacity));
    this.weights = new Array<number>(this.ring.length).fill(0);
    this.windowStart = windowStart;
  }

  get length(): number {
    return this.size;
  }

  push(event: HistoryEvent, bytes = 0): void {
    if (this.size === this.ring.length) this.dropOldest();
    const i = (this.start + this.size) % this.ring.length;
    this.ring[i] = event;
    this.weights[i] = bytes;
    this.bytes += bytes;
    this.size++;
  }

  /** The oldest event's resourceVersion, or undefined when empty. */
  get oldestRv(): number | undefined {
    return this.size > 0 ? this.at(0).rv : undefined;
  }

  /** Forgets the oldest event: resumes from before it get 410. */
  dropOldest(): void {
    if (this.size === 0) return;
    const evicted = this.ring[this.start];
    if (evicted) this.windowStart = Math.max(this.windowStart, evicted.rv);
    this.ring[this.start] = undefined;
    this.bytes -= this.weights[this.start]!;
    this.weights[this.start] = 0;
    this.start = (this.start + 1) % this.ring.length;
    this.size--;
  }

  at(i: number): HistoryEvent {
    const e = this.ring[(this.start + i) % this.ring.length];
    if (!e) throw new Error(`history index ${i} out of range`);
    return e;
  }

  /** Index of the first event with rv > `rv` (== length when none). */
  firstAfter(rv: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Events with rv > `rv`, oldest first. */
  after(rv: number): HistoryEvent[] {
    const out: HistoryEvent[] = [];
    for (let i = this.firstAfter(rv); i < this.size; i++) out.push(this.at(i));
    return out;
  }

  /** Drops events with rv <= `rv` and moves the window start up to it. */
  compact(rv: number): void {
    const drop = this.firstAfter(rv);
    for (let i = 0; i < drop; i++) this.dropOldest();
    this.windowStart = Math.max(this.windowStart, rv);
  }

  all(): HistoryEvent[] {
    return this.after(-1);
  }
}

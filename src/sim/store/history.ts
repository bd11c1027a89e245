import type { Stored } from './storedObject.ts';

// The watch cache's window: the most recent events of one resource in a ring buffer. Events are
// appended in resourceVersion order, so lookups by RV are binary searches.

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
  private start = 0;
  private size = 0;
  /** Every event with rv > `windowStart` is still here. */
  windowStart: number;

  constructor(capacity: number, windowStart: number) {
    this.ring = new Array<HistoryEvent | undefined>(Math.max(1, capacity));
    this.windowStart = windowStart;
  }

  get length(): number {
    return this.size;
  }

  push(event: HistoryEvent): void {
    const cap = this.ring.length;
    if (this.size === cap) {
      const evicted = this.ring[this.start];
      if (evicted) this.windowStart = Math.max(this.windowStart, evicted.rv);
      this.ring[this.start] = event;
      this.start = (this.start + 1) % cap;
    } else {
      this.ring[(this.start + this.size) % cap] = event;
      this.size++;
    }
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
    for (let i = 0; i < drop; i++) this.ring[(this.start + i) % this.ring.length] = undefined;
    this.start = (this.start + drop) % this.ring.length;
    this.size -= drop;
    this.windowStart = Math.max(this.windowStart, rv);
  }

  all(): HistoryEvent[] {
    return this.after(-1);
  }
}

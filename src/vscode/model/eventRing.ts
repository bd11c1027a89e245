import type { TimelineEvent } from '../../shared/protocol/timeline.ts';

// The host's bounded memory of timeline events (setting controllerLab.timeline.maxEvents): a ring
// that assigns each event a sequence number and evicts the oldest. The panel pulls what is new
// since the last seq it sent, so a burst of 1,000 events/s becomes a few batched posts.

export type NewTimelineEvent = Omit<TimelineEvent, 'seq'>;

export class EventRing {
  private buffer: (TimelineEvent | undefined)[];
  private start = 0;
  private count = 0;
  private nextSeq = 1;
  private lastAt = -Infinity;
  private listeners: (() => void)[] = [];

  constructor(capacity: number) {
    this.buffer = new Array<TimelineEvent | undefined>(Math.max(1, Math.floor(capacity)));
  }

  get capacity(): number {
    return this.buffer.length;
  }

  get size(): number {
    return this.count;
  }

  /** The highest seq evicted so far (-1: none), what the webview must drop. */
  get evictedThroughSeq(): number {
    const first = this.first();
    return first ? first.seq - 1 : this.nextSeq - 1;
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Adds an event; times never run backwards (the webview's lanes rely on it). */
  push(event: NewTimelineEvent): TimelineEvent {
    const at = Math.max(event.at, this.lastAt);
    this.lastAt = at;
    const stored: TimelineEvent = { ...event, at, seq: this.nextSeq++ };
    const capacity = this.buffer.length;
    if (this.count < capacity) {
      this.buffer[(this.start + this.count) % capacity] = stored;
      this.count++;
    } else {
      this.buffer[this.start] = stored;
      this.start = (this.start + 1) % capacity;
    }
    for (const listener of this.listeners) listener();
    return stored;
  }

  first(): TimelineEvent | undefined {
    return this.count === 0 ? undefined : this.buffer[this.start];
  }

  private at(index: number): TimelineEvent {
    return this.buffer[(this.start + index) % this.buffer.length] as TimelineEvent;
  }

  get(seq: number): TimelineEvent | undefined {
    const first = this.first();
    if (!first) return undefined;
    const index = seq - first.seq;
    return index >= 0 && index < this.count ? this.at(index) : undefined;
  }

  /** Events with seq > `seq`, oldest first. */
  since(seq: number): TimelineEvent[] {
    const first = this.first();
    if (!first) return [];
    const from = Math.max(0, seq + 1 - first.seq);
    const out: TimelineEvent[] = [];
    for (let i = from; i < this.count; i++) out.push(this.at(i));
    return out;
  }

  all(): TimelineEvent[] {
    return this.since(-1);
  }

  /** Keeps the newest events that fit. */
  resize(capacity: number): void {
    const events = this.all();
    this.buffer = new Array<TimelineEvent | undefined>(Math.max(1, Math.floor(capacity)));
    this.start = 0;
    this.count = 0;
    for (const e of events.slice(-this.buffer.length)) this.buffer[this.count++] = e;
  }

  clear(): void {
    this.buffer.fill(undefined);
    this.start = 0;
    this.count = 0;
  }

  /** Called after every push (cheap; the panel only schedules a flush). */
  onDidPush(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
}

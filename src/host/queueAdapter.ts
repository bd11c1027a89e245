import type { Clock } from '../shared/clock.ts';
import type { WorkQueue } from '../workqueue/index.ts';
import type { ControllerQueue, KeyState, QueueCounts } from './engine/ports.ts';
import { QUEUE_SNAPSHOT_KEYS, type QueueKeySnapshot, type QueueSnapshot } from '../controllerProtocol/index.ts';

// Binds the rate-limited workqueue to the loop's ControllerQueue port, and turns its per-item
// introspection into the snapshot the debugger's Queue scope and the views show. Whether a waiting
// key waits for backoff or for a requested delay is learnt from the queue's own events.

export class WorkQueueAdapter implements ControllerQueue {
  private readonly queue: WorkQueue<string>;
  private readonly clock: Clock;
  private readonly waitReason = new Map<string, 'backoff' | 'after'>();
  private readonly listeners: (() => void)[] = [];

  constructor(queue: WorkQueue<string>, clock: Clock) {
    this.queue = queue;
    this.clock = clock;
    queue.onEvent((e) => {
      if (e.kind === 'rateLimited') this.waitReason.set(e.item, 'backoff');
      else if (e.kind === 'addAfter') this.waitReason.set(e.item, 'after');
      for (const l of this.listeners) l();
    });
  }

  add(key: string): void {
    this.queue.add(key);
  }
  async get(): Promise<string | undefined> {
    const r = await this.queue.get();
    return r.shutdown ? undefined : r.item;
  }
  done(key: string): void {
    this.queue.done(key);
  }
  forget(key: string): void {
    this.queue.forget(key);
  }
  addRateLimited(key: string): void {
    this.queue.addRateLimited(key);
  }
  addAfter(key: string, delayMs: number): void {
    this.queue.addAfter(key, delayMs);
  }
  numRequeues(key: string): number {
    return this.queue.numRequeues(key);
  }
  shutDown(): void {
    this.queue.shutDown();
  }
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  stateOf(key: string): KeyState | undefined {
    const s = this.queue.stateOf(key);
    if (!s) return undefined;
    return { state: s.state, ...(s.until !== undefined ? { readyAt: s.until } : {}), ...(s.requeued ? { dirty: true } : {}) };
  }

  counts(): QueueCounts {
    const m = this.queue.metrics();
    return { depth: m.depth, processing: m.processing, waiting: m.waiting };
  }

  snapshot(limit = QUEUE_SNAPSHOT_KEYS): QueueSnapshot {
    const keys: QueueKeySnapshot[] = this.queue.snapshot(limit).map((s) => {
      const k: QueueKeySnapshot = { key: s.item, state: s.state, retries: s.retries };
      if (s.state === 'waiting' && s.until !== undefined) {
        k.readyAt = s.until;
        k.backoffMs = Math.max(0, s.until - s.since);
        k.reason = this.waitReason.get(s.item) ?? 'after';
      }
      if (s.requeued) k.dirty = true;
      return k;
    });
    const counts = this.counts();
    const total = counts.depth + counts.processing + counts.waiting;
    const snapshot: QueueSnapshot = { at: this.clock.now(), ...counts, keys };
    if (total > keys.length) snapshot.omitted = total - keys.length;
    return snapshot;
  }
}

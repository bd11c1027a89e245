// Time is injected so that backoff, resync, rate limits and bookmarks are tested by stepping a fake
// clock instead of sleeping (client-go's clock.Clock).

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` after `ms` milliseconds unless cancelled first. */
  setTimer(ms: number, fn: () => void): TimerHandle;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that moves only when told to. Timers fire in due order during `step`. */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: PendingTimer[] = [];

  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const timer: PendingTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => { timer.cancelled = true; } };
  }

  /** Advances time by `ms`, firing every timer that falls due, in order (timers may add timers). */
  step(ms: number): void {
    const until = this.current + ms;
    for (;;) {
      this.timers = this.timers.filter((t) => !t.cancelled);
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers[0];
      if (!next || next.at > until) break;
      this.timers.shift();
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = until;
  }

  /** Timers still waiting (not cancelled). */
  pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}

interface ArmedTimer {
  /** When it falls due, in this clock's time. */
  due: number;
  fn: () => void;
  handle: TimerHandle | undefined;
}

/**
 * A clock that can be stopped: while paused, `now()` stands still and no timer fires; on resume,
 * time goes on from where it stopped and each timer keeps the delay it had left. A debug session's
 * scenario runs on one, so nothing the scenario does happens while the debugger is stopped.
 */
export class PausableClock implements Clock {
  private readonly base: Clock;
  /** Time spent paused so far (excluding a pause in progress). */
  private pausedFor = 0;
  private pausedAt: number | undefined;
  private readonly timers = new Set<ArmedTimer>();

  constructor(base: Clock = realClock) {
    this.base = base;
  }

  get paused(): boolean {
    return this.pausedAt !== undefined;
  }

  now(): number {
    return (this.pausedAt ?? this.base.now()) - this.pausedFor;
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const timer: ArmedTimer = { due: this.now() + Math.max(0, ms), fn, handle: undefined };
    this.timers.add(timer);
    if (!this.paused) this.arm(timer);
    return {
      cancel: () => {
        timer.handle?.cancel();
        this.timers.delete(timer);
      },
    };
  }

  pause(): void {
    if (this.paused) return;
    this.pausedAt = this.base.now();
    for (const t of this.timers) {
      t.handle?.cancel();
      t.handle = undefined;
    }
  }

  resume(): void {
    if (this.pausedAt === undefined) return;
    this.pausedFor += this.base.now() - this.pausedAt;
    this.pausedAt = undefined;
    for (const t of this.timers) this.arm(t);
  }

  private arm(timer: ArmedTimer): void {
    timer.handle = this.base.setTimer(Math.max(0, timer.due - this.now()), () => {
      this.timers.delete(timer);
      timer.fn();
    });
  }
}

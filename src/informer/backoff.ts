import type { Clock } from '../shared/clock.ts';

// The reflector's retry pacing (client-go: wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0,
// 1.0)): each failure doubles the wait, jitter spreads reconnecting clients apart, and a connection
// that stayed healthy for `resetAfterMs` starts again from the initial delay.

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  factor?: number;
  /** Adds up to `jitter × delay` at random. */
  jitter?: number;
  /** No failure for this long → the next delay starts from `initialMs` again. */
  resetAfterMs?: number;
}

export class Backoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: number;
  private readonly resetAfterMs: number;
  private readonly clock: Clock;
  private readonly random: () => number;
  private attempt = 0;
  private lastAt: number | undefined;

  constructor(clock: Clock, random: () => number, options: BackoffOptions = {}) {
    this.clock = clock;
    this.random = random;
    this.initialMs = options.initialMs ?? 800;
    this.maxMs = options.maxMs ?? 30_000;
    this.factor = options.factor ?? 2;
    this.jitter = options.jitter ?? 1;
    this.resetAfterMs = options.resetAfterMs ?? 120_000;
  }

  /** The delay before the next retry; counts as one failure. */
  next(): { delayMs: number; attempt: number } {
    const now = this.clock.now();
    if (this.lastAt !== undefined && now - this.lastAt >= this.resetAfterMs) this.attempt = 0;
    this.lastAt = now;
    const base = Math.min(this.maxMs, this.initialMs * this.factor ** this.attempt);
    this.attempt++;
    const delayMs = Math.min(this.maxMs, Math.round(base + this.random() * this.jitter * base));
    return { delayMs, attempt: this.attempt };
  }
}

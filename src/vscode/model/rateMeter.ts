import type { Clock } from '../../shared/clock.ts';

// Events per second over the last few seconds, from counts in one-second buckets.

export class RateMeter {
  private readonly buckets: number[];
  private bucketSecond = 0;
  private readonly clock: Clock;

  constructor(clock: Clock, windowSeconds = 3) {
    this.clock = clock;
    this.buckets = new Array<number>(windowSeconds + 1).fill(0);
  }

  private roll(): void {
    const second = Math.floor(this.clock.now() / 1000);
    const steps = Math.min(this.buckets.length, second - this.bucketSecond);
    for (let i = 0; i < steps; i++) {
      this.buckets.pop();
      this.buckets.unshift(0);
    }
    if (steps > 0) this.bucketSecond = second;
  }

  add(n = 1): void {
    this.roll();
    this.buckets[0] = (this.buckets[0] ?? 0) + n;
  }

  /** Average over the completed buckets (the current second is partial). */
  perSecond(): number {
    this.roll();
    const complete = this.buckets.slice(1);
    return complete.reduce((a, b) => a + b, 0) / complete.length;
  }
}

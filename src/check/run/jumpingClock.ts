import type { Clock, TimerHandle } from '../../shared/clock.ts';

// The scenario's clock in a check. A scenario's times (`at: 3s`, `after: 2s`) say in what order
// things happen and give the controller time to settle in between; they are not something the
// controller waits on. So while the controller is quiet, the clock jumps to the next step, and a
// 10-second scenario runs in as long as the controller needs to work through it.

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class JumpingClock implements Clock {
  private offset = 0;
  private seq = 0;
  private timers: Timer[] = [];
  private wakeup: ReturnType<typeof setTimeout> | undefined;

  now(): number {
    return Date.now() + this.offset;
  }

  setTimer(ms: number, fn: () => void): TimerHandle {
    const timer: Timer = { at: this.now() + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    this.schedule();
    return { cancel: () => void ((timer.cancelled = true), this.schedule()) };
  }

  /** Whether a timer is still to fire. */
  get pending(): boolean {
    return this.timers.some((t) => !t.cancelled);
  }

  /** Moves the clock to the next timer and fires it (and any due with it). */
  jump(): void {
    const next = this.live()[0];
    if (!next) return;
    this.offset += Math.max(0, next.at - this.now());
    this.fireDue();
  }

  /** Stops firing: a run that ended must not step its scenario any more. */
  stop(): void {
    for (const t of this.timers) t.cancelled = true;
    this.timers = [];
    clearTimeout(this.wakeup);
  }

  private live(): Timer[] {
    this.timers = this.timers.filter((t) => !t.cancelled).sort((a, b) => a.at - b.at || a.seq - b.seq);
    return this.timers;
  }

  private fireDue(): void {
    for (let t = this.live()[0]; t && t.at <= this.now(); t = this.live()[0]) {
      this.timers.shift();
      t.fn();
    }
    this.schedule();
  }

  /** Real time still passes: a timer falls due on its own when nobody jumps. */
  private schedule(): void {
    clearTimeout(this.wakeup);
    const next = this.live()[0];
    if (!next) return;
    this.wakeup = setTimeout(() => this.fireDue(), Math.max(0, next.at - this.now()));
    this.wakeup.unref();
  }
}

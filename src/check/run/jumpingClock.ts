import type { Clock, TimerHandle } from '../../shared/clock.ts';

// The scenario's clock in a check. A scenario's times (`at: 3s`, `after: 2s`) say in what order
// things happen and give the controller time to settle in between; they are not something the
// controller waits on. So while the controller is quiet, the clock jumps to the next step, and a
// 10-second scenario runs in as long as the controller needs to work through it. While the
// controller is down (a plan killed it, and it starts again), the clock stands still: the scenario's
// next step comes as long after the restart as it would have after the kill, however long the
// process takes to start on a loaded machine, so a run and its replay see the same order.

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
  /** Holds in force (a restart inside another's), and the real time the first began. */
  private holds = 0;
  private heldSince = 0;

  now(): number {
    return (this.holds > 0 ? this.heldSince : Date.now()) + this.offset;
  }

  /** Stops the clock until `release`: no timer falls due meanwhile. */
  hold(): void {
    if (this.holds++ === 0) {
      this.heldSince = Date.now();
      clearTimeout(this.wakeup);
    }
  }

  release(): void {
    if (this.holds === 0 || --this.holds > 0) return;
    this.offset -= Date.now() - this.heldSince;
    this.schedule();
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
    if (!next || this.holds > 0) return;
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
    if (this.holds > 0) return;
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
    if (!next || this.holds > 0) return;
    this.wakeup = setTimeout(() => this.fireDue(), Math.max(0, next.at - this.now()));
    this.wakeup.unref();
  }
}

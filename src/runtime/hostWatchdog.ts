// The parent's watch on a controller host's event loop. A host that is asked to (HostInit.
// heartbeatMs) beats from a timer; a synchronous infinite loop in user code stops the timers with
// everything else, so silence is the one sign the parent can see from outside. The host cannot
// time such a reconcile out itself: its own timers never fire.

export interface WatchdogOptions {
  /** Silence longer than this, once the host has beaten, means it is blocked. */
  stallMs: number;
  /** Silence allowed before the first beat (process start, loading the host's own modules). */
  firstBeatMs: number;
  onStall(silentMs: number): void;
  now?: () => number;
}

/** How often the host beats for a given stall limit: several beats fit in one limit. */
export function heartbeatInterval(stallMs: number): number {
  return Math.max(50, Math.min(1000, Math.floor(stallMs / 4)));
}

export class HostWatchdog {
  private readonly opts: WatchdogOptions;
  private readonly now: () => number;
  private last: number;
  private lastCheck: number;
  private readonly interval: number;
  private beating = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(opts: WatchdogOptions) {
    this.opts = opts;
    this.now = opts.now ?? (() => performance.now());
    this.last = this.lastCheck = this.now();
    this.interval = heartbeatInterval(opts.stallMs);
    this.timer = setInterval(() => this.check(), this.interval);
    this.timer.unref();
  }

  heartbeat(): void {
    this.beating = true;
    this.last = this.now();
  }

  /**
   * Any other message. From a host that spoke before it beat, no beats are coming (it does not send
   * them). Otherwise it counts as a beat: when the host sends more than this process reads, its
   * beats queue behind the rest, and the messages ahead of them show the host was running.
   */
  message(): void {
    if (!this.beating) this.stop();
    else this.last = this.now();
  }

  /** For good: a JavaScript debugger may now hold the host paused for as long as it likes. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private check(): void {
    const now = this.now();
    // This process was busy itself: the host's beats may be waiting unread. Silence counts only
    // while the parent was listening.
    if (now - this.lastCheck > 2 * this.interval) this.last = Math.max(this.last, now - this.interval);
    this.lastCheck = now;
    const silentMs = now - this.last;
    if (silentMs <= (this.beating ? this.opts.stallMs : this.opts.firstBeatMs)) return;
    this.stop();
    this.opts.onStall(silentMs);
  }
}

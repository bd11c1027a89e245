// The parent's watch on a controller host's event loop. A host that is asked to (HostInit.
// heartbeatMs) beats from a timer; a synchronous infinite loop in user code stops the timers with
// everything else, so silence is the one sign the parent can see from outside. The host cannot
// time such a reconcile out itself: its own timers never fire.
//
// Silence alone is not enough on a busy machine: a host starved of CPU is silent too. Where the OS
// reports the host's CPU time, silence counts as blocked only once the host has also burnt
// blockedCpuMs of CPU without a word; a host blocked without using CPU (a synchronous sleep) is
// still stopped after hardExtraMs more.

export interface WatchdogOptions {
  /** Silence longer than this (and enough CPU used meanwhile) means the host is blocked. */
  stallMs: number;
  onStall(silentMs: number): void;
  /** The host's CPU time so far (undefined: unknown, silence alone decides). */
  cpuMs?: () => number | undefined;
  now?: () => number;
  /** CPU a healthy host never spends without a turn of its event loop (and so a beat). Default 500 ms. */
  blockedCpuMs?: number;
  /** Silence beyond stallMs after which the host is stopped whatever its CPU says. Default 30 s. */
  hardExtraMs?: number;
}

/** How often the host beats for a given stall limit: several beats fit in one limit. */
export function heartbeatInterval(stallMs: number): number {
  return Math.max(50, Math.min(1000, Math.floor(stallMs / 4)));
}

export class HostWatchdog {
  private readonly opts: WatchdogOptions;
  private readonly now: () => number;
  private readonly interval: number;
  private last: number;
  private lastCheck: number;
  private heard = false;
  private cpuAtLastWord: number | undefined;
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

  /** The first beat arms the watch: the host beats before it loads any user code. */
  heartbeat(): void {
    this.beating = true;
    this.sign();
  }

  /**
   * Any other message. From a host that spoke before it beat, no beats are coming (it does not send
   * them). Otherwise it counts as a beat: when the host sends more than this process reads, its
   * beats queue behind the rest, and the messages ahead of them show the host was running.
   */
  message(): void {
    if (!this.beating) this.stop();
    else this.sign();
  }

  /** For good: a JavaScript debugger may now hold the host paused for as long as it likes. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private sign(): void {
    this.last = this.now();
    this.heard = true;
  }

  private check(): void {
    if (!this.beating) return;
    const now = this.now();
    // This process was busy itself: the host's beats may be waiting unread. Silence counts only
    // while the parent was listening.
    if (now - this.lastCheck > 2 * this.interval) this.last = Math.max(this.last, now - this.interval);
    this.lastCheck = now;
    const cpu = this.opts.cpuMs?.();
    if (this.heard || this.cpuAtLastWord === undefined) {
      this.heard = false;
      this.cpuAtLastWord = cpu;
    }
    const silentMs = now - this.last;
    if (silentMs <= this.opts.stallMs) return;
    const burnt = cpu === undefined || this.cpuAtLastWord === undefined ? undefined : cpu - this.cpuAtLastWord;
    if (burnt !== undefined && burnt < (this.opts.blockedCpuMs ?? 500) && silentMs <= this.opts.stallMs + (this.opts.hardExtraMs ?? 30_000)) return;
    this.stop();
    this.opts.onStall(silentMs);
  }
}

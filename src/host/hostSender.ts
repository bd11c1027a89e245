import type { HostMessage } from '../controllerProtocol/index.ts';

// How the host talks to its parent. Each IPC send costs tens of microseconds however small the
// message, so a reconcile logging 100,000 lines in a loop, or an informer syncing 10,000 objects,
// spent seconds in sends alone. Frequent messages (logs, deltas, queue snapshots, probes) are
// collected and leave as one `batch` once the event loop turns; a message that marks a moment
// (reconcile start/end, heartbeat, idle, fatal …) goes at once, after the batch before it, so order
// is kept and a reconcile that then blocks the host is already known to the parent.

const BATCHED = new Set<HostMessage['type']>(['log', 'delta', 'queue', 'probe', 'fate']);

/**
 * A reconcile's first log lines go at once: the line logged just before a loop that never ends is
 * the one its author needs, and a batch would never leave. Only a chatty reconcile is batched.
 */
const IMMEDIATE_LOGS_PER_RECONCILE = 50;

/** A batch leaves early when it gets this long, so it never holds more than this in memory. */
const MAX_BATCH = 1000;

export class HostSender {
  private readonly raw: (message: HostMessage) => void;
  private pending: HostMessage[] = [];
  private scheduled = false;
  private readonly logsSent = new Map<string, number>();

  constructor(raw: (message: HostMessage) => void) {
    this.raw = raw;
  }

  send(message: HostMessage): void {
    if (message.type === 'reconcileEnd') this.logsSent.delete(message.end.reconcileId);
    if (!BATCHED.has(message.type) || this.logGoesAtOnce(message)) {
      this.flush();
      this.raw(message);
      return;
    }
    this.pending.push(message);
    if (this.pending.length >= MAX_BATCH) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private logGoesAtOnce(message: HostMessage): boolean {
    if (message.type !== 'log') return false;
    // Outside a reconcile: rare, and often the last word before a crash.
    if (!message.reconcileId) return true;
    const sent = (this.logsSent.get(message.reconcileId) ?? 0) + 1;
    this.logsSent.set(message.reconcileId, sent);
    return sent <= IMMEDIATE_LOGS_PER_RECONCILE;
  }

  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const messages = this.pending;
    this.pending = [];
    this.raw(messages.length === 1 ? (messages[0] as HostMessage) : { type: 'batch', messages });
  }
}

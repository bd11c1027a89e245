import { FateBatchWriter, type HostMessage } from '../controllerProtocol/index.ts';

// How the host talks to its parent. Each IPC send costs tens of microseconds however small the
// message, so a reconcile logging 100,000 lines in a loop, or an informer syncing 10,000 objects,
// spent seconds in sends alone. Frequent messages (logs, deltas, queue snapshots, probes) are
// collected and leave as one `batch` once the event loop turns; a message that marks a moment
// (reconcile start/end, heartbeat, idle, fatal …) goes at once, after the batch before it, so order
// is kept and a reconcile that then blocks the host is already known to the parent.
// Event fates, one per watch event, leave as one string per batch (fateBatch.ts), placed where the
// batch's first fate came: the order among fates is kept, against logs and deltas it is not needed.

const BATCHED = new Set<HostMessage['type']>(['log', 'delta', 'queue', 'probe']);

/**
 * A reconcile's first log lines go at once: the line logged just before a loop that never ends is
 * the one its author needs, and a batch would never leave. Only a chatty reconcile is batched.
 */
const IMMEDIATE_LOGS_PER_RECONCILE = 50;

/** A batch leaves early when it gets this long, so it never holds more than this in memory. */
const MAX_BATCH = 1000;
/** Fates are small: a batch holds this many before it leaves early. */
const MAX_FATES = 5000;

type FatesMessage = Extract<HostMessage, { type: 'fates' }>;

export class HostSender {
  private readonly raw: (message: HostMessage) => void;
  private pending: HostMessage[] = [];
  private scheduled = false;
  private readonly logsSent = new Map<string, number>();
  private readonly fates = new FateBatchWriter();
  /** The pending message the open fate batch becomes at flush. */
  private fatesMessage: FatesMessage | undefined;

  constructor(raw: (message: HostMessage) => void) {
    this.raw = raw;
  }

  send(message: HostMessage): void {
    if (message.type === 'fate') return this.sendFate(message.fate);
    if (message.type === 'reconcileEnd') this.logsSent.delete(message.end.reconcileId);
    if (!BATCHED.has(message.type) || this.logGoesAtOnce(message)) {
      this.flush();
      this.raw(message);
      return;
    }
    this.pending.push(message);
    if (this.pending.length >= MAX_BATCH) this.flush();
    else this.schedule();
  }

  private sendFate(fate: Extract<HostMessage, { type: 'fate' }>['fate']): void {
    if (!this.fatesMessage) {
      this.fatesMessage = { type: 'fates', data: '', count: 0 };
      this.pending.push(this.fatesMessage);
    }
    this.fates.add(fate);
    if (this.fates.count >= MAX_FATES) this.flush();
    else this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
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
    if (this.fatesMessage) {
      this.fatesMessage.count = this.fates.count;
      this.fatesMessage.data = this.fates.finish();
      this.fatesMessage = undefined;
    }
    if (this.pending.length === 0) return;
    const messages = this.pending;
    this.pending = [];
    this.raw(messages.length === 1 ? (messages[0] as HostMessage) : { type: 'batch', messages });
  }
}

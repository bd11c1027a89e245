import type { LogLine, ReconcileEnd, ReconcileRecord } from '../controllerProtocol/index.ts';

// Keeps the most recent reconciles, in start order, so the debugger can step back through them and
// the views can list them. A record is added when the reconcile starts and completed when it ends.

export const MAX_LOGS_PER_RECORD = 1000;

export class ReconcileRecorder {
  /** Kept records are records[head..]; dropped ones are cut off in batches, not one shift each. */
  private records: ReconcileRecord[] = [];
  private head = 0;
  private readonly byId = new Map<string, ReconcileRecord>();
  /**
   * By seq: a Go manager numbers reconciles as its workers start them, but workers of different
   * controllers may report them in another order, so seqs are not positions in `records`.
   */
  private readonly bySeqNumber = new Map<number, ReconcileRecord>();
  private readonly capacity: number;

  constructor(capacity = 5000) {
    this.capacity = capacity;
  }

  start(record: ReconcileRecord): ReconcileRecord {
    this.records.push(record);
    this.byId.set(record.reconcileId, record);
    this.bySeqNumber.set(record.seq, record);
    while (this.records.length - this.head > this.capacity) {
      const dropped = this.records[this.head++];
      if (dropped) {
        this.byId.delete(dropped.reconcileId);
        if (this.bySeqNumber.get(dropped.seq) === dropped) this.bySeqNumber.delete(dropped.seq);
      }
    }
    if (this.head > 1024 && this.head * 2 > this.records.length) {
      this.records = this.records.slice(this.head);
      this.head = 0;
    }
    return record;
  }

  end(end: ReconcileEnd): ReconcileRecord | undefined {
    const record = this.byId.get(end.reconcileId);
    if (!record) return undefined;
    record.durationMs = end.durationMs;
    record.writes = end.writes;
    record.outcome = end.outcome;
    record.decision = end.decision;
    if (end.staleReads?.length) record.staleReads = end.staleReads;
    return record;
  }

  /** Keeps a reconcile's first MAX_LOGS_PER_RECORD lines; later ones are only counted (they were printed). */
  log(reconcileId: string, line: LogLine): void {
    const record = this.byId.get(reconcileId);
    if (!record) return;
    if (record.logs.length < MAX_LOGS_PER_RECORD) record.logs.push(line);
    else record.droppedLogs = (record.droppedLogs ?? 0) + 1;
  }

  get(reconcileId: string): ReconcileRecord | undefined {
    return this.byId.get(reconcileId);
  }

  bySeq(seq: number): ReconcileRecord | undefined {
    return this.bySeqNumber.get(seq);
  }

  /** The record started just before `seq` (stepBack), or undefined at the oldest one kept. */
  previous(seq: number): ReconcileRecord | undefined {
    return this.bySeq(seq - 1);
  }

  next(seq: number): ReconcileRecord | undefined {
    return this.bySeq(seq + 1);
  }

  all(): readonly ReconcileRecord[] {
    return this.head === 0 ? this.records : this.records.slice(this.head);
  }

  get size(): number {
    return this.records.length - this.head;
  }

  latest(): ReconcileRecord | undefined {
    return this.records.length > this.head ? this.records[this.records.length - 1] : undefined;
  }
}

import { join } from 'node:path';
import type { PersistenceFs, WritableFile } from './persistenceFs.ts';
import { segmentFile } from './stateDir.ts';

// The write-ahead journal with group commit, as etcd's WAL: records are appended in commit order to
// an in-memory batch; one batch at a time is written and fdatasync'ed, and every write that arrived
// meanwhile goes in the next batch. A caller waits (whenDurable) only for the batch holding its
// write, so concurrent writers share fsyncs instead of queueing behind one each.
//
// When a batch fails (ENOSPC, EIO) its records stay queued and are written again, at the same offset,
// every `retryMs` until the disk takes them; those waiting are told at once.

const LINES_PER_WRITE = 2000;

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

export interface JournalHooks {
  onFailure(err: Error): void;
  onRecovered(): void;
}

export class Journal {
  private pending: string[] = [];
  private appended = 0;
  private durable = 0;
  private readonly waiters: Waiter[] = [];
  private file: WritableFile | undefined;
  private offset = 0;
  private segment: number;
  private rotateRequested = false;
  private flushing = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private failure: Error | undefined;
  private readonly fs: PersistenceFs;
  private readonly dir: string;
  private readonly retryMs: number;
  private readonly hooks: JournalHooks;

  /** `lastSegment`: the highest segment number already in the directory (the next one is above it). */
  constructor(fs: PersistenceFs, dir: string, lastSegment: number, retryMs: number, hooks: JournalHooks) {
    this.fs = fs;
    this.dir = dir;
    this.segment = lastSegment;
    this.rotateRequested = true;
    this.retryMs = retryMs;
    this.hooks = hooks;
  }

  /** Why the last batch could not be written (undefined while healthy). */
  get failed(): Error | undefined {
    return this.failure;
  }

  append(line: string): void {
    this.pending.push(line);
    this.appended++;
    this.schedule();
  }

  /** Resolves once every record appended so far is on disk; rejects if its batch failed. */
  whenDurable(): Promise<void> {
    const seq = this.appended;
    if (this.durable >= seq) return Promise.resolve();
    if (this.failure && !this.flushing) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  /**
   * Later batches go to a new segment. Returns the number of the last segment that may hold records
   * appended before this call: it and older ones may go once a snapshot covers those records.
   */
  rotate(): number {
    this.rotateRequested = true;
    return this.segment;
  }

  /** Writes what is queued (one last try when failing), then closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    while (this.flushing) await new Promise((r) => setImmediate(r));
    if (this.pending.length) await this.flush();
    await this.file?.close().catch(() => undefined);
    this.file = undefined;
  }

  private schedule(): void {
    if (this.flushing || this.retryTimer || this.closed) return;
    this.flushing = true;
    // setImmediate, not a microtask: every write of this turn of the event loop joins the batch.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const lines = this.pending;
        const upto = this.appended;
        this.pending = [];
        let written = 0;
        try {
          if (this.rotateRequested || !this.file) await this.openNextSegment();
          // A big batch (an in-process burst) is encoded and written in slices: no long stall.
          for (let i = 0; i < lines.length; i += LINES_PER_WRITE) {
            const data = Buffer.from(lines.slice(i, i + LINES_PER_WRITE).join(''), 'utf8');
            await this.file!.write(data, this.offset + written);
            written += data.length;
          }
          await this.file!.sync();
        } catch (err) {
          this.pending = lines.concat(this.pending);
          // Cut a partial append off, so the retry (or a restart) never finds half a batch.
          await this.file?.truncate(this.offset).catch(() => undefined);
          this.fail(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        this.offset += written;
        this.durable = upto;
        if (this.failure) {
          this.failure = undefined;
          this.hooks.onRecovered();
        }
        while (this.waiters.length && this.waiters[0]!.seq <= this.durable) this.waiters.shift()!.resolve();
      }
    } finally {
      this.flushing = false;
    }
  }

  private async openNextSegment(): Promise<void> {
    const next = this.segment + 1;
    const file = await this.fs.create(join(this.dir, segmentFile(next)));
    await this.fs.syncDir(this.dir);
    const old = this.file;
    this.file = file;
    this.segment = next;
    this.offset = 0;
    this.rotateRequested = false;
    await old?.close().catch(() => undefined);
  }

  private fail(err: Error): void {
    const first = !this.failure;
    this.failure = err;
    for (const w of this.waiters.splice(0)) w.reject(err);
    if (first) this.hooks.onFailure(err);
    if (this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.flush().then(() => this.pending.length && this.schedule());
    }, this.retryMs);
    this.retryTimer.unref();
  }
}

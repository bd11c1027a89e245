import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../shared/apiError.ts';
import type { Status } from '../../shared/k8s.ts';
import type { HistoryEvent } from './history.ts';
import { Journal } from './journal.ts';
import { deleteLine, putLine, reserveLine } from './journalRecord.ts';
import type { MvccStore, ResourceTable } from './mvccStore.ts';
import { nodePersistenceFs, replaceFileSync, type PersistenceFs } from './persistenceFs.ts';
import { snapshotHeader, snapshotItem, SNAPSHOT_FOOTER, writeSnapshot, type SnapshotEntry } from './snapshotWriter.ts';
import { RESERVATION_FILE, segmentFile, segmentNumber, SNAPSHOT_FILE, StateFileError, type LoadedState } from './stateDir.ts';

// Durability for `--state-dir`, as etcd gives it: every commit is appended to a journal (group
// commit, see journal.ts) and a write is acknowledged only once its batch is on disk
// (whenDurable); the journal is folded into a snapshot (state.json) when it grows or writes go
// quiet. ResourceVersions never go back: a block of them is reserved on disk before any is handed
// out (a journal record, written ahead while half the block is left; a synchronous write of
// rv-reservation only if the journal falls that far behind), and a restart after a crash carries
// on past the block, so a client holding a version that was seen but never saved is told 410 and
// relists instead of resuming on a reused one.
//
// A disk that fails (full, read-only, gone) never takes the process down: waiting writes are
// answered 500, new ones 503 while the journal cannot be written (it retries every second), and
// problem() says why for /readyz and the log.

export interface PersistenceOptions {
  fs?: PersistenceFs;
  /** Compact once the journal has grown this much past the last snapshot (or the snapshot's size, if larger). Default 4 MiB. */
  compactAfterBytes?: number;
  /** Compact once writes have been quiet this long. Default 500 ms. */
  quietMs?: number;
  /** Retry interval for a failing journal. Default 1000 ms. */
  retryMs?: number;
  /** ResourceVersions reserved per durable reservation. Default 10 000. */
  reserveBlock?: number;
  /** One line per change of health. Default: stderr. */
  log?: (line: string) => void;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function storageError(code: 500 | 503, message: string): ApiError {
  const reason = code === 503 ? 'ServiceUnavailable' : 'InternalError';
  const status: Status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, reason, code };
  if (code === 503) status.details = { retryAfterSeconds: 1 };
  return new ApiError(code, message, reason, status);
}

export class Persistence {
  private readonly fs: PersistenceFs;
  private readonly dir: string;
  private readonly mvcc: MvccStore;
  private readonly journal: Journal;
  private readonly compactAfterBytes: number;
  private readonly quietMs: number;
  private readonly retryMs: number;
  private readonly reserveBlock: number;
  private readonly log: (line: string) => void;
  /** Versions below this are reserved on disk. */
  private reserved = 0;
  /** The highest reservation asked for (on disk or in the journal's queue). */
  private requested = 0;
  private sinceSnapshot = 0;
  private snapshotBytes = 0;
  private lastWriteAt = 0;
  private quietTimer: NodeJS.Timeout | undefined;
  private compacting: Promise<void> | undefined;
  private compactAgain = false;
  private closing = false;
  private reservationFailure: Error | undefined;
  private snapshotFailure: Error | undefined;

  /**
   * Takes over a state dir whose contents `loaded` describes and whose objects `mvcc` now holds:
   * writes a fresh snapshot of them (0600) and starts a new journal. Throws StateFileError when
   * the directory cannot be written.
   */
  constructor(dir: string, mvcc: MvccStore, loaded: LoadedState, options: PersistenceOptions = {}) {
    this.fs = options.fs ?? nodePersistenceFs;
    this.dir = dir;
    this.mvcc = mvcc;
    this.compactAfterBytes = options.compactAfterBytes ?? 4 * 1024 * 1024;
    this.quietMs = options.quietMs ?? 500;
    this.retryMs = options.retryMs ?? 1000;
    this.reserveBlock = options.reserveBlock ?? 10_000;
    this.log = options.log ?? ((line) => process.stderr.write(`controller-lab sim: ${line}\n`));

    const snapshotFile = join(dir, SNAPSHOT_FILE);
    // The snapshot names the journal that follows it, which exists before it does: a journal
    // missing later is a loss the next start can name, not an idle sim's empty history.
    const lastSegment = Math.max(0, ...loaded.segments);
    const firstJournal = join(dir, segmentFile(lastSegment + 1));
    try {
      replaceFileSync(firstJournal, '');
    } catch (err) {
      throw new StateFileError(`${firstJournal}: cannot be written (${messageOf(err)})`);
    }
    try {
      const parts = [snapshotHeader(mvcc.resourceVersion, mvcc.resourceVersion + 1, lastSegment + 1)];
      const items = this.capture().map(snapshotItem);
      parts.push(items.join(','), SNAPSHOT_FOOTER);
      const text = parts.join('');
      replaceFileSync(snapshotFile, text);
      this.snapshotBytes = Buffer.byteLength(text);
      this.reserve(mvcc.resourceVersion + this.reserveBlock);
    } catch (err) {
      throw new StateFileError(`${snapshotFile}: cannot be written (${messageOf(err)})`);
    }
    // The snapshot holds everything: the journals it was rebuilt from can go.
    for (const n of loaded.segments) {
      try {
        unlinkSync(join(dir, segmentFile(n)));
      } catch {
        // Replaying an old segment again is harmless: its records are older than the snapshot.
      }
    }
    this.journal = new Journal(this.fs, dir, lastSegment, this.retryMs, {
      onFailure: (err) => this.log(`cannot write the journal in ${dir}: ${err.message}; writes are refused (503) until it can (retrying every ${this.retryMs} ms)`),
      onRecovered: () => this.log(`the journal in ${dir} is written again; writes are accepted`),
    });
  }

  /** Called before resourceVersion `rv` is handed out: refuses while nothing can be saved, reserves ahead. */
  beforeCommit(rv: number): void {
    if (this.closing) throw storageError(503, 'the simulated cluster is shutting down');
    const failed = this.journal.failed;
    if (failed) throw storageError(503, `storage is unavailable: cannot write the journal in ${this.dir}: ${failed.message}`);
    if (rv < this.reserved) {
      if (rv >= this.reserved - this.reserveBlock / 2 && this.requested <= this.reserved) this.reserveAhead(rv);
    } else {
      try {
        this.reserve(rv + this.reserveBlock);
        if (this.reservationFailure) this.log(`${join(this.dir, RESERVATION_FILE)} is written again`);
        this.reservationFailure = undefined;
      } catch (err) {
        if (!this.reservationFailure) this.log(`cannot write ${join(this.dir, RESERVATION_FILE)}: ${messageOf(err)}; writes are refused (503)`);
        this.reservationFailure = err instanceof Error ? err : new Error(String(err));
        throw storageError(503, `storage is unavailable: cannot write ${join(this.dir, RESERVATION_FILE)}: ${messageOf(err)}`);
      }
    }
  }

  /** Called for every commit, in commit order. */
  recordCommit(table: ResourceTable, event: HistoryEvent): void {
    const line = event.type === 'DELETED'
      ? deleteLine(event.rv, table.group, table.resource, event.key)
      : putLine(event.rv, table.group, table.resource, event.key, event.object.json());
    this.journal.append(line);
    this.sinceSnapshot += line.length;
    this.lastWriteAt = Date.now();
    if (this.sinceSnapshot > Math.max(this.compactAfterBytes, this.snapshotBytes)) void this.compact();
    else this.armQuietTimer(this.quietMs);
  }

  /** Resolves once every write so far is on disk; rejects with a 500 Status if it cannot be saved. */
  whenDurable(): Promise<void> {
    return this.journal.whenDurable().catch((err: unknown) => {
      throw storageError(500, `Internal error occurred: the write was applied but could not be saved to ${this.dir}: ${messageOf(err)}`);
    });
  }

  /** Why persistence is failing now (for /readyz and the views), or undefined. */
  problem(): string | undefined {
    const failed = this.journal.failed;
    if (failed) return `cannot write the journal in ${this.dir}: ${failed.message}`;
    if (this.reservationFailure) return `cannot write ${join(this.dir, RESERVATION_FILE)}: ${this.reservationFailure.message}`;
    if (this.snapshotFailure) return `cannot write ${join(this.dir, SNAPSHOT_FILE)}: ${this.snapshotFailure.message}`;
    return undefined;
  }

  /** Writes what is queued and a last snapshot; afterwards every write is refused. */
  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.quietTimer);
    await this.compacting;
    await this.journal.close();
    if (this.journal.failed) {
      this.log(`stopping with writes not saved: ${this.journal.failed.message}`);
      return;
    }
    // Every version handed out is on disk: the next start carries on right after the last one.
    if (!(await this.compactNow(this.mvcc.resourceVersion + 1))) return;
    try {
      this.reserve(this.mvcc.resourceVersion + 1);
    } catch (err) {
      this.log(`cannot write ${join(this.dir, RESERVATION_FILE)}: ${messageOf(err)}`);
    }
  }

  // ---- internals ----

  /** Synchronously, before returning: at start, at stop, and when the journal fell behind. */
  private reserve(upTo: number): void {
    this.fs.replaceSync(join(this.dir, RESERVATION_FILE), `${upTo}\n`);
    this.reserved = upTo;
    this.requested = Math.max(this.requested, upTo);
  }

  /** The next block, through the journal: on disk with the next batch, long before it is needed. */
  private reserveAhead(rv: number): void {
    const upTo = rv + this.reserveBlock;
    this.requested = upTo;
    this.journal.append(reserveLine(rv - 1, upTo));
    this.journal.whenDurable().then(
      () => (this.reserved = Math.max(this.reserved, upTo)),
      () => (this.requested = this.reserved), // asked again once the journal is written again
    );
  }

  private capture(): SnapshotEntry[] {
    const entries: SnapshotEntry[] = [];
    for (const t of this.mvcc.allTables()) for (const stored of t.current.values()) entries.push({ group: t.group, resource: t.resource, stored });
    return entries;
  }

  private armQuietTimer(ms: number): void {
    if (this.quietTimer || this.closing) return;
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      const quietFor = Date.now() - this.lastWriteAt;
      if (quietFor < this.quietMs) this.armQuietTimer(this.quietMs - quietFor);
      else void this.compact();
    }, ms);
    this.quietTimer.unref();
  }

  private compact(): Promise<void> {
    if (this.compacting) {
      // Asked again meanwhile: writes came after the capture; fold them in once this one is done.
      this.compactAgain = true;
      return this.compacting;
    }
    if (this.closing || this.sinceSnapshot === 0) return Promise.resolve();
    this.compacting = this.compactNow()
      .then(() => undefined, (err: unknown) => this.log(`compaction failed: ${messageOf(err)}`))
      .finally(() => {
        this.compacting = undefined;
        if (this.compactAgain && !this.snapshotFailure) {
          this.compactAgain = false;
          void this.compact();
        }
      });
    return this.compacting;
  }

  /** Resolves to whether the snapshot was written. `reserved`: what it records as reserved (default: every version asked for). */
  private async compactNow(reserved = this.requested): Promise<boolean> {
    const rv = this.mvcc.resourceVersion;
    const entries = this.capture();
    const covered = this.journal.rotate();
    const journaled = this.sinceSnapshot;
    this.sinceSnapshot = 0;
    try {
      // Later writes go to the next segment: it is there before the snapshot that names it.
      await this.fs.ensure(join(this.dir, segmentFile(covered + 1)));
      await this.fs.syncDir(this.dir);
      this.snapshotBytes = await writeSnapshot(this.fs, this.dir, rv, reserved, covered + 1, entries);
      if (this.snapshotFailure) this.log(`${join(this.dir, SNAPSHOT_FILE)} is written again`);
      this.snapshotFailure = undefined;
    } catch (err) {
      this.sinceSnapshot += journaled;
      if (!this.snapshotFailure) this.log(`cannot write ${join(this.dir, SNAPSHOT_FILE)}: ${messageOf(err)}; writes are still journaled, retrying`);
      this.snapshotFailure = err instanceof Error ? err : new Error(String(err));
      this.armQuietTimer(this.retryMs * 5);
      return false;
    }
    await this.deleteSegmentsUpTo(covered);
    return true;
  }

  private async deleteSegmentsUpTo(last: number): Promise<void> {
    let files: string[];
    try {
      files = await this.fs.list(this.dir);
    } catch {
      return;
    }
    for (const f of files) {
      const n = segmentNumber(f);
      if (n !== undefined && n <= last) await this.fs.unlink(join(this.dir, f)).catch(() => undefined);
    }
  }
}

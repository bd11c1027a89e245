import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../shared/k8s.ts';
import { acceptLossHint } from '../vocabulary/stateLoss.ts';
import { readSegmentText, type DamagedRun, type SegmentReading } from './journalReader.ts';

// What a state dir holds, and reading it back at start:
//   state.json          a snapshot: every object at one resourceVersion (written whole, then renamed),
//                       naming the journal that follows it (created, empty, before it)
//   journal-N.log       the writes after it, one checksummed line each, N rising (compaction
//                       starts a new one and deletes the older ones once the snapshot is on disk)
//   rv-reservation      resourceVersions below this number may have been handed out (so may
//                       those below a `reserve` record in a journal or the snapshot's reservedResourceVersion)
// The directory is one unit. A crash can leave a torn last line in the last journal (never
// acknowledged: dropped). Anything else is damage or a missing piece (state.json gone while its
// journal is there, the journal it names gone, a run of resourceVersions missing from the journals): the start stops with one
// line naming the file, the byte offset and what would be lost, unless the loss is accepted
// (--accept-state-loss, vocabulary/stateLoss.ts), when the rest is loaded and each loss is said.


export const SNAPSHOT_FILE = 'state.json';
export const RESERVATION_FILE = 'rv-reservation';
/** How far past the last write resourceVersions carry on when rv-reservation was damaged. */
const RESERVATION_LOST_MARGIN = 1_000_000;
const SEGMENT = /^journal-(\d+)\.log$/;

export function segmentFile(n: number): string {
  return `journal-${n}.log`;
}

export function segmentNumber(file: string): number | undefined {
  const m = SEGMENT.exec(file);
  return m ? Number(m[1]) : undefined;
}

/** A state dir the sim cannot start from; the message is one line naming the file. */
export class StateFileError extends Error {
  /** Set when starting anyway would lose data (and --accept-state-loss allows it): what is wrong and what would be lost. */
  readonly loss: string | undefined;

  constructor(message: string, loss?: string) {
    super(message);
    this.name = 'StateFileError';
    this.loss = loss;
  }
}

function lossRefused(dir: string, losses: string[]): StateFileError {
  const more = losses.length > 1 ? ` (and ${losses.length - 1} more damaged or missing part${losses.length > 2 ? 's' : ''})` : '';
  return new StateFileError(`${losses[0]}${more}${acceptLossHint(dir)}`, losses[0]);
}

export interface LoadOptions {
  /** Load what can be read and report the rest (LoadedState.losses) instead of refusing to start. */
  acceptLoss?: boolean;
}

export interface StoredEntry {
  group: string;
  resource: string;
  object: KubeObject;
}

export interface LoadedState {
  /** The resourceVersion to carry on from (never below any version a client may have seen). */
  resourceVersion: number;
  objects: StoredEntry[];
  /** Nothing was there: a new cluster. */
  fresh: boolean;
  /** Journal segments found (replayed); the next one gets a higher number. */
  segments: number[];
  /** What was lost, one line each, when the loss was accepted. */
  losses: string[];
}

interface Snapshot {
  version: 1;
  resourceVersion: number;
  /** Versions below this may have been handed out when it was written (absent in older files). */
  reservedResourceVersion?: number;
  /** The journal segment holding the writes after it, on disk before it (absent in older files). */
  journal?: number;
  objects: StoredEntry[];
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EISDIR') return 'is a directory, not a file';
  if (e.code === 'EACCES' || e.code === 'EPERM') return 'cannot be read (permission denied)';
  return e.code ? `cannot be read (${e.code})` : String(e.message ?? err);
}

function readText(file: string): string | undefined {
  try {
    if (statSync(file).isDirectory()) throw new StateFileError(`${file}: is a directory, not a Controller Lab state file`);
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof StateFileError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`${file}: ${describe(err)}`);
  }
}

function readSnapshot(file: string): Snapshot | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  const damaged = (what: string) => new StateFileError(what, `${what}: every object it holds would be lost`);
  if (text.trim() === '') throw damaged(`${file}: empty, not a Controller Lab state file`);
  let parsed: Partial<Snapshot>;
  try {
    parsed = JSON.parse(text) as Partial<Snapshot>;
  } catch (err) {
    const why = (err as Error).message.split('\n')[0]!;
    // JSON.parse counts characters; the line names bytes, as the journal's damage does.
    const at = /at position (\d+)/.exec(why);
    const where = at ? `truncated or damaged at byte ${Buffer.byteLength(text.slice(0, Number(at[1])))}` : 'truncated or damaged';
    throw damaged(`${file}: not valid JSON, ${where} (${why})`);
  }
  if (typeof parsed !== 'object' || parsed === null || parsed.version !== 1 || !Number.isSafeInteger(parsed.resourceVersion) || !Array.isArray(parsed.objects)) {
    throw damaged(`${file}: not a Controller Lab state file (expected {"version":1,"resourceVersion":…,"objects":[…]})`);
  }
  parsed.objects.forEach((o, i) => {
    if (typeof o !== 'object' || o === null || typeof o.group !== 'string' || typeof o.resource !== 'string' || typeof o.object?.metadata !== 'object' || o.object.metadata === null) {
      throw damaged(`${file}: objects[${i}] is not a stored object`);
    }
  });
  return parsed as Snapshot;
}

/** A segment's records and damage; a torn tail is cut off the file (new appends never follow it). */
function readSegment(file: string, last: boolean, cutTornTail: boolean): SegmentReading {
  const text = readText(file) ?? '';
  const reading = readSegmentText(text, last);
  if (reading.tornAt !== undefined && cutTornTail) {
    const fd = openSync(file, 'r+');
    try {
      ftruncateSync(fd, reading.tornAt);
    } finally {
      closeSync(fd);
    }
  }
  return reading;
}

/** What a damaged run loses: the resourceVersions between the writes read around it, and the writes it still names. */
function damageLoss(file: string, run: DamagedRun, before: number, after: number | undefined): string | undefined {
  const lines = run.named.length ? ` (${run.named.join(', ')})` : '';
  const where = `${file}: damaged at byte ${run.offset} (${run.why}, ${run.bytes} bytes)`;
  if (after === undefined) return `${where}: every write after resourceVersion ${before} would be lost${lines}`;
  // The writes on both sides follow each other: the damage held none (a reservation, or a write the snapshot has).
  if (after <= before + 1) return undefined;
  const lost = after - 1 === before + 1 ? `resourceVersion ${before + 1}` : `resourceVersions ${before + 1}–${after - 1}`;
  return `${where}: ${lost} would be lost${lines}`;
}

function readReservation(file: string): number {
  const text = readText(file);
  if (text === undefined) return 0;
  const n = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) {
    const what = `${file}: not a resourceVersion (${JSON.stringify(text.slice(0, 40))})`;
    throw new StateFileError(what, `${what}: the resourceVersions handed out past the last write would be lost, so a client resuming from one could miss events`);
  }
  return n;
}

/** Reads one part of the state dir; damage whose loss can be accepted is noted in `losses` (accepted) or refused with the flag. */
function readAccepting<T>(dir: string, read: () => T, fallback: T, losses: string[], acceptLoss: boolean | undefined): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof StateFileError && err.loss)) throw err;
    if (!acceptLoss) throw lossRefused(dir, [err.loss]);
    losses.push(err.loss);
    return fallback;
  }
}

function keyOf(object: KubeObject): string {
  const m = object.metadata;
  return m.namespace ? `${m.namespace}/${m.name ?? ''}` : m.name ?? '';
}

export function loadStateDir(dir: string, options: LoadOptions = {}): LoadedState {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { resourceVersion: 0, objects: [], fresh: true, segments: [], losses: [] };
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') throw new StateFileError(`${dir}: not a directory (--state-dir needs a directory)`);
    throw new StateFileError(`${dir}: ${describe(err)}`);
  }
  const losses: string[] = [];
  const snapshotFile = join(dir, SNAPSHOT_FILE);
  const snapshot = readAccepting(dir, () => readSnapshot(snapshotFile), undefined, losses, options.acceptLoss);
  const segments = files.map(segmentNumber).filter((n): n is number => n !== undefined).sort((a, b) => a - b);
  const reservationFile = join(dir, RESERVATION_FILE);
  const reservation = readAccepting(dir, () => readReservation(reservationFile), undefined, losses, options.acceptLoss);
  let reserved = Math.max(reservation ?? 0, snapshot?.reservedResourceVersion ?? 0);
  // state.json is written before any journal or reservation: without it, they are not the whole state.
  const dependents = [...segments.map(segmentFile), ...(files.includes(RESERVATION_FILE) ? [RESERVATION_FILE] : [])];
  if (!snapshot && losses.length === 0 && dependents.length > 0) {
    losses.push(`${snapshotFile}: missing while ${dependents.join(', ')} ${dependents.length > 1 ? 'are' : 'is'} there: every object it held (the namespaces among them) would be lost`);
  }

  // The journal the snapshot names is gone and none came after it: whatever was written since is lost.
  const named = snapshot?.journal;
  if (named !== undefined && Number.isSafeInteger(named) && !segments.some((n) => n >= named)) {
    losses.push(`${join(dir, segmentFile(named))}: missing while ${snapshotFile} names it: every write after resourceVersion ${snapshot!.resourceVersion} would be lost`);
  }

  const objects = new Map<string, StoredEntry>();
  const id = (g: string, r: string, k: string) => `${g}\u0000${r}\u0000${k}`;
  let rv = snapshot?.resourceVersion ?? 0;
  const snapshotRv = rv;
  for (const o of snapshot?.objects ?? []) objects.set(id(o.group, o.resource, keyOf(o.object)), o);
  // Writes take every resourceVersion in turn: after the snapshot's, the journals hold the next ones, none missing.
  let pending: { file: string; run: DamagedRun }[] = [];
  const settle = (next: number | undefined, file: string, offset: number) => {
    for (const p of pending) {
      const loss = damageLoss(p.file, p.run, rv, next);
      if (loss) losses.push(loss);
    }
    // Without a snapshot, what came before the first write read is that loss already.
    if (pending.length === 0 && next !== undefined && next > rv + 1 && (snapshot !== undefined || rv > 0)) {
      const lost = next - 1 === rv + 1 ? `resourceVersion ${rv + 1} is` : `resourceVersions ${rv + 1}–${next - 1} are`;
      losses.push(`${file}: ${lost} missing before byte ${offset} (a journal file missing or cut): ${lost.endsWith('is') ? 'that write' : 'those writes'} would be lost`);
    }
    pending = [];
  };
  segments.forEach((n, i) => {
    const file = join(dir, segmentFile(n));
    const reading = readSegment(file, i === segments.length - 1, losses.length === 0 || options.acceptLoss === true);
    let d = 0;
    for (const { record, offset } of reading.records) {
      for (; d < reading.damage.length && reading.damage[d]!.offset < offset; d++) pending.push({ file, run: reading.damage[d]! });
      if ('reserve' in record) {
        reserved = Math.max(reserved, record.reserve);
        continue;
      }
      if (record.rv <= snapshotRv) continue;
      settle(record.rv, file, offset);
      if ('d' in record) objects.delete(id(record.g, record.r, record.k));
      else objects.set(id(record.g, record.r, record.k), { group: record.g, resource: record.r, object: record.o });
      rv = Math.max(rv, record.rv);
    }
    for (; d < reading.damage.length; d++) pending.push({ file, run: reading.damage[d]! });
  });
  settle(undefined, '', 0);
  if (losses.length > 0 && !options.acceptLoss) throw lossRefused(dir, losses);

  const fresh = snapshot === undefined && rv === 0 && reserved === 0 && losses.length === 0;
  // Versions up to reserved-1 may have been seen by clients yet never made durable (a crash between
  // a commit and its fsync): carry on past them, so no client ever sees one reused. Resumes from
  // anything older then get 410 and relist.
  let resourceVersion = rv >= reserved - 1 ? rv : reserved;
  // A damaged reservation no longer says how far clients may have seen: jump well past what was read.
  if (files.includes(RESERVATION_FILE) && reservation === undefined) resourceVersion += RESERVATION_LOST_MARGIN;
  return { resourceVersion, objects: [...objects.values()], fresh, segments, losses };
}

/** Creates the state dir (owner-only when new). */
export function prepareStateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new StateFileError(`${dir}: cannot be created (${describe(err)})`);
  }
}

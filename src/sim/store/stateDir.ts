import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../shared/k8s.ts';
import { parseLine, type JournalRecord } from './journalRecord.ts';

// What a state dir holds, and reading it back at start:
//   state.json          a snapshot: every object at one resourceVersion (written whole, then renamed)
//   journal-N.log       the writes after it, one checksummed line each, N rising (compaction
//                       starts a new one and deletes the older ones once the snapshot is on disk)
//   rv-reservation      resourceVersions below this number may have been handed out (so may
//                       those below a `reserve` record in a journal or the snapshot's reservedResourceVersion)
// A crash can leave a torn last line in a journal (never acknowledged: dropped). Anything else that
// does not parse is damage, reported as one line naming the file, never guessed around.

export const SNAPSHOT_FILE = 'state.json';
export const RESERVATION_FILE = 'rv-reservation';
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
  constructor(message: string) {
    super(message);
    this.name = 'StateFileError';
  }
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
}

interface Snapshot {
  version: 1;
  resourceVersion: number;
  /** Versions below this may have been handed out when it was written (absent in older files). */
  reservedResourceVersion?: number;
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
  if (text.trim() === '') throw new StateFileError(`${file}: empty, not a Controller Lab state file (remove it to start afresh)`);
  let parsed: Partial<Snapshot>;
  try {
    parsed = JSON.parse(text) as Partial<Snapshot>;
  } catch (err) {
    throw new StateFileError(`${file}: not valid JSON, truncated or damaged (${(err as Error).message.split('\n')[0]})`);
  }
  if (typeof parsed !== 'object' || parsed === null || parsed.version !== 1 || !Number.isSafeInteger(parsed.resourceVersion) || !Array.isArray(parsed.objects)) {
    throw new StateFileError(`${file}: not a Controller Lab state file (expected {"version":1,"resourceVersion":…,"objects":[…]})`);
  }
  parsed.objects.forEach((o, i) => {
    if (typeof o !== 'object' || o === null || typeof o.group !== 'string' || typeof o.resource !== 'string' || typeof o.object?.metadata !== 'object' || o.object.metadata === null) {
      throw new StateFileError(`${file}: objects[${i}] is not a stored object`);
    }
  });
  return parsed as Snapshot;
}

/** The records of one segment; a torn tail (no valid line after it) is cut off the file. */
function readSegment(file: string): JournalRecord[] {
  const text = readText(file) ?? '';
  const records: JournalRecord[] = [];
  let offset = 0;
  let bad: { line: number; offset: number; why: string } | undefined;
  let lineNo = 0;
  while (offset < text.length) {
    const end = text.indexOf('\n', offset);
    lineNo++;
    const line = end < 0 ? text.slice(offset) : text.slice(offset, end);
    const parsed = end < 0 ? 'incomplete last line' : parseLine(line);
    if (typeof parsed === 'string') {
      bad ??= { line: lineNo, offset, why: parsed };
    } else {
      if (bad) throw new StateFileError(`${file}: line ${bad.line} is damaged (${bad.why}) and is followed by valid records`);
      records.push(parsed);
    }
    offset = end < 0 ? text.length : end + 1;
  }
  if (bad) {
    // Cut the torn tail off, so new appends never follow garbage.
    const fd = openSync(file, 'r+');
    try {
      ftruncateSync(fd, Buffer.byteLength(text.slice(0, bad.offset)));
    } finally {
      closeSync(fd);
    }
  }
  return records;
}

function readReservation(file: string): number {
  const text = readText(file);
  if (text === undefined) return 0;
  const n = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) throw new StateFileError(`${file}: not a resourceVersion (${JSON.stringify(text.slice(0, 40))})`);
  return n;
}

function keyOf(object: KubeObject): string {
  const m = object.metadata;
  return m.namespace ? `${m.namespace}/${m.name ?? ''}` : m.name ?? '';
}

export function loadStateDir(dir: string): LoadedState {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { resourceVersion: 0, objects: [], fresh: true, segments: [] };
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') throw new StateFileError(`${dir}: not a directory (--state-dir needs a directory)`);
    throw new StateFileError(`${dir}: ${describe(err)}`);
  }
  const snapshot = readSnapshot(join(dir, SNAPSHOT_FILE));
  const segments = files.map(segmentNumber).filter((n): n is number => n !== undefined).sort((a, b) => a - b);
  let reserved = Math.max(readReservation(join(dir, RESERVATION_FILE)), snapshot?.reservedResourceVersion ?? 0);

  const objects = new Map<string, StoredEntry>();
  const id = (g: string, r: string, k: string) => `${g}\u0000${r}\u0000${k}`;
  let rv = snapshot?.resourceVersion ?? 0;
  const snapshotRv = rv;
  for (const o of snapshot?.objects ?? []) objects.set(id(o.group, o.resource, keyOf(o.object)), o);
  for (const n of segments) {
    for (const rec of readSegment(join(dir, segmentFile(n)))) {
      if ('reserve' in rec) {
        reserved = Math.max(reserved, rec.reserve);
        continue;
      }
      if (rec.rv <= snapshotRv) continue;
      if ('d' in rec) objects.delete(id(rec.g, rec.r, rec.k));
      else objects.set(id(rec.g, rec.r, rec.k), { group: rec.g, resource: rec.r, object: rec.o });
      rv = Math.max(rv, rec.rv);
    }
  }
  const fresh = snapshot === undefined && rv === 0 && reserved === 0;
  // Versions up to reserved-1 may have been seen by clients yet never made durable (a crash between
  // a commit and its fsync): carry on past them, so no client ever sees one reused. Resumes from
  // anything older then get 410 and relist.
  const resourceVersion = rv >= reserved - 1 ? rv : reserved;
  return { resourceVersion, objects: [...objects.values()], fresh, segments };
}

/** Creates the state dir (owner-only when new). */
export function prepareStateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new StateFileError(`${dir}: cannot be created (${describe(err)})`);
  }
}

import { parseLine, type JournalRecord } from './journalRecord.ts';

// Reading one journal segment back, telling a torn tail from damage. A crash in the middle of an
// append leaves the last line incomplete: a prefix of a record, never acknowledged (its batch was
// not synced), so it is dropped without a word, as etcd's WAL drops a torn last entry. Anything
// else that does not read as a record is damage: a complete line whose checksum does not match,
// bytes zeroed by the disk, an incomplete line in a segment that is not the last.

export interface ReadRecord {
  record: JournalRecord;
  /** Where its line starts, in bytes. */
  offset: number;
}

export interface DamagedRun {
  /** Where the damage starts, in bytes. */
  offset: number;
  bytes: number;
  /** What is wrong (`checksum mismatch`, `zeroed bytes`…). */
  why: string;
  /** The records the damaged lines still name (their JSON read, their checksum not trusted). */
  named: string[];
}

export interface SegmentReading {
  records: ReadRecord[];
  damage: DamagedRun[];
  /** Where a torn last line starts (the file is cut there), when there is one. */
  tornAt?: number;
}

/** What a partial write of a record leaves: up to 8 hex digits, then a space and JSON text (never a NUL). */
const RECORD_PREFIX = /^[0-9a-f]{0,8}$|^[0-9a-f]{8} /;

/** A damaged line's record as its JSON names it, e.g. `the put of configmaps default/a at resourceVersion 57`. */
function namedRecord(line: string): string | undefined {
  try {
    const r = JSON.parse(line.slice(9)) as { rv?: unknown; g?: unknown; r?: unknown; k?: unknown; d?: unknown; reserve?: unknown };
    if (typeof r.rv !== 'number' || typeof r.r !== 'string' || typeof r.k !== 'string') return undefined;
    const resource = r.g ? `${r.r}.${String(r.g)}` : r.r;
    return `the ${r.d === true ? 'delete' : 'put'} of ${resource} ${r.k} at resourceVersion ${r.rv}`;
  } catch {
    return undefined;
  }
}

/** `last`: the segment written last, the only one a crash can have left torn. */
export function readSegmentText(text: string, last: boolean): SegmentReading {
  const records: ReadRecord[] = [];
  const damage: DamagedRun[] = [];
  const buffer = Buffer.from(text, 'utf8');
  let offset = 0;
  const damaged = (at: number, bytes: number, why: string, line: string) => {
    const named = namedRecord(line);
    const run = damage.at(-1);
    // Adjacent damaged lines are one run.
    if (run && run.offset + run.bytes === at) {
      run.bytes += bytes;
      if (named) run.named.push(named);
      return;
    }
    damage.push({ offset: at, bytes, why, named: named ? [named] : [] });
  };
  while (offset < buffer.length) {
    const end = buffer.indexOf(0x0a, offset);
    if (end < 0) {
      const rest = buffer.subarray(offset).toString('utf8');
      if (last && RECORD_PREFIX.test(rest) && !rest.includes('\u0000')) return { records, damage, tornAt: offset };
      damaged(offset, buffer.length - offset, rest.includes('\u0000') ? 'zeroed bytes' : 'an incomplete line', rest);
      break;
    }
    let line = buffer.subarray(offset, end).toString('utf8');
    let at = offset;
    // Zeroed bytes (newlines too) run into the next line: the zeros are the damage, the rest may be a record.
    let zeros = 0;
    while (zeros < line.length && line.charCodeAt(zeros) === 0) zeros++;
    if (zeros > 0 && zeros < line.length) {
      damaged(at, zeros, 'zeroed bytes', '');
      at += zeros;
      line = line.slice(zeros);
    }
    const parsed = parseLine(line);
    if (typeof parsed === 'string') damaged(at, end + 1 - at, line.startsWith('\u0000') ? 'zeroed bytes' : parsed, line);
    else records.push({ record: parsed, offset: at });
    offset = end + 1;
  }
  return { records, damage };
}

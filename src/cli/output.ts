import type { Writable } from 'node:stream';

// Terminal output for streams of events: lines are gathered and written once per turn of the event
// loop, so a burst of thousands of events costs a handful of writes, not one each.

/** Room for a turn's lines before the first write: ~1,000 event lines. */
const BATCH_BYTES = 128 * 1024;

export class BatchedWriter {
  /**
   * Each line is encoded here as it comes, so its string dies at once. Kept as strings until the
   * end of the turn, a burst's lines were copied by every scavenge meanwhile and joined once more:
   * printing cost `watch` a fifth more CPU than not printing.
   */
  private batch = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  private scheduled = false;
  private readonly out: Writable;

  constructor(out: Writable) {
    this.out = out;
  }

  line(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; one more for the newline.
    if (this.used + text.length * 3 + 1 > this.batch.length) this.makeRoom(text.length * 3 + 1);
    this.used += this.batch.write(text, this.used);
    this.batch[this.used++] = 0x0a;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes what is gathered; the callback runs once the stream accepted it. */
  flush(done?: () => void): void {
    this.scheduled = false;
    if (this.used === 0) {
      done?.();
      return;
    }
    // The stream may hold on to the bytes until written: later lines go to a new buffer.
    const bytes = this.batch.subarray(0, this.used);
    this.batch = Buffer.allocUnsafe(BATCH_BYTES);
    this.used = 0;
    if (done) this.out.write(bytes, () => done());
    else this.out.write(bytes);
  }

  /** Writes what is gathered when a line of `bytes` would not fit, and makes room for it. */
  private makeRoom(bytes: number): void {
    if (this.used > 0) this.flush();
    if (bytes > this.batch.length) this.batch = Buffer.allocUnsafe(bytes);
  }
}

/** kubectl's short ages: 42s, 5m, 3h, 12d. */
export function age(creationTimestamp: string | undefined, now: number): string {
  if (!creationTimestamp) return '<unknown>';
  const seconds = Math.max(0, Math.floor((now - timestampMs(creationTimestamp)) / 1000));
  if (Number.isNaN(seconds)) return '<unknown>';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

/**
 * A Kubernetes timestamp in ms since the epoch. Its usual form, RFC 3339 in UTC to the second
 * (2026-01-01T00:00:00Z), is read digit by digit: `watch` prints an age per event, and Date.parse
 * cost as much as the rest of the line. Anything else goes to Date.parse.
 */
export function timestampMs(text: string): number {
  if (text.length !== 20 || text.charCodeAt(19) !== Z) return Date.parse(text);
  const year = digits(text, 0, 4, DASH);
  const month = digits(text, 5, 2, DASH);
  const day = digits(text, 8, 2, T);
  const hour = digits(text, 11, 2, COLON);
  const minute = digits(text, 14, 2, COLON);
  const second = digits(text, 17, 2, Z);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59)) return Date.parse(text);
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

const DASH = 0x2d;
const COLON = 0x3a;
const T = 0x54;
const Z = 0x5a;

/** The number written in `text` at `at` with `count` digits and followed by `then`; NaN otherwise. */
function digits(text: string, at: number, count: number, then: number): number {
  if (text.charCodeAt(at + count) !== then) return NaN;
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

/** `text` padded with spaces to `width`; a longer value just pushes the rest of its line right (as kubectl -w). */
export function padded(text: string, width: number): string {
  return text.length >= width ? text : text.padEnd(width);
}

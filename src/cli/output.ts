import type { Writable } from 'node:stream';

// Terminal output for streams of events: lines are gathered and written once per turn of the event
// loop, so a burst of thousands of events costs a handful of writes, not one each.

/** Room for a turn's lines before the first write: ~1,000 event lines. */
const BATCH_BYTES = 128 * 1024;

/** Longer text is encoded by Buffer#write, which beats a byte-by-byte copy on long strings. */
const COPY_MAX_LENGTH = 64;

const SPACE = 0x20;
const NEWLINE = 0x0a;

export class BatchedWriter {
  /**
   * Each line is encoded here as it comes, so its string dies at once. Kept as strings until the
   * end of the turn, a burst's lines were copied by every scavenge meanwhile and joined once more:
   * printing cost `watch` a fifth more CPU than not printing.
   */
  private batch: Buffer = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  /** A written batch, free to fill again. */
  private spare: Buffer | undefined;
  private scheduled = false;
  private batchStartedAt = 0;
  private readonly out: Writable;

  constructor(out: Writable) {
    this.out = out;
  }

  /**
   * The time (Date.now()) this batch was first asked for it: its lines reach the reader together,
   * at the end of this turn of the event loop. One clock read per line was a tenth of printing.
   * Read on the first call, not with the batch's first line: that may be one that asks for no
   * time (watch's header), and the lines after it read an age from 0.
   */
  now(): number {
    if (this.batchStartedAt === 0) this.batchStartedAt = Date.now();
    return this.batchStartedAt;
  }

  /** Writes `text` and a newline. */
  line(text: string): void {
    this.text(text);
    this.endLine();
  }

  /**
   * Writes `text` padded with spaces to `width` characters, then `gap` spaces; longer text just
   * pushes the rest of its line right (as kubectl -w). A line written column by column costs no
   * string of its own: the values' characters go straight into the batch.
   */
  column(text: string, width: number, gap: number): void {
    const pad = Math.max(0, width - text.length) + gap;
    this.text(text, pad);
    const batch = this.batch;
    let at = this.used;
    for (let i = 0; i < pad; i++) batch[at++] = SPACE;
    this.used = at;
  }

  /** Writes a whole number ≥ 0 in decimal, without a string for it. */
  integer(n: number): void {
    if (!(Number.isSafeInteger(n) && n >= 0)) return this.text(String(n));
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.reserve(digits);
    const batch = this.batch;
    let at = this.used + digits;
    this.used = at;
    let rest = n;
    do {
      batch[--at] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  /** Writes `text`, with room left for `extra` more bytes. */
  text(text: string, extra = 0): void {
    const length = text.length;
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.reserve(length * 3 + extra);
    const batch = this.batch;
    const start = this.used;
    if (length > COPY_MAX_LENGTH) {
      this.used = start + batch.write(text, start);
      return;
    }
    // ASCII is copied as it is; anything else is left to the encoder.
    let at = start;
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) {
        this.used = start + batch.write(text, start);
        return;
      }
      batch[at++] = c;
    }
    this.used = at;
  }

  /** Ends the line; the batch is written at the end of this turn of the event loop. */
  endLine(): void {
    this.reserve(1);
    this.batch[this.used++] = NEWLINE;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes what is gathered; the callback runs once the stream accepted it. */
  flush(done?: () => void): void {
    this.scheduled = false;
    this.batchStartedAt = 0;
    if (this.used === 0) {
      done?.();
      return;
    }
    // The stream may hold on to the bytes until it has written them: later lines go to the spare
    // buffer, and this one becomes the spare once written. A new buffer per turn cost more than
    // the lines themselves: at this size each is mapped afresh and faulted in page by page.
    const batch = this.batch;
    const bytes = batch.subarray(0, this.used);
    this.batch = this.spare ?? Buffer.allocUnsafe(BATCH_BYTES);
    this.spare = undefined;
    this.used = 0;
    this.out.write(bytes, () => {
      if (batch.length === BATCH_BYTES) this.spare = batch;
      done?.();
    });
  }

  /**
   * Makes room for `bytes` more, writing what is gathered when they would not fit. That may write
   * part of a line: the stream still gets the same bytes in the same order.
   */
  private reserve(bytes: number): void {
    if (this.used + bytes <= this.batch.length) return;
    if (this.used > 0) this.flush();
    if (bytes > this.batch.length) this.batch = Buffer.allocUnsafe(bytes);
  }
}

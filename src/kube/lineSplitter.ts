// Splits a stream of text chunks into lines. Chunks arrive wherever TCP cut them, so a line may span
// any number of chunks; only complete lines are handed on. The caller decodes bytes to text first
// (a StringDecoder keeps multi-byte characters that straddle two chunks intact).

/** Receives every complete line, without its `\n` (a trailing `\r` is dropped too). Empty lines are skipped. */
export type LineSink = (line: string) => void;

/** A line grew past the splitter's limit; it was dropped, not buffered to the end. */
export class LineTooLongError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`a line longer than ${limit} characters`);
    this.name = 'LineTooLongError';
    this.limit = limit;
  }
}

export class LineSplitter {
  private pending = '';
  private readonly sink: LineSink;
  private readonly maxLineLength: number;

  /**
   * `maxLineLength`: a line that grows past it throws LineTooLongError from `push` as soon as it
   * does, so that a runaway stream never holds more than that (V8 throws a RangeError on strings
   * past 512 MiB, which nothing upstream would expect).
   */
  constructor(sink: LineSink, maxLineLength = Infinity) {
    this.sink = sink;
    this.maxLineLength = maxLineLength;
  }

  /** Feeds one chunk; calls the sink once per line completed by it, in order. */
  push(chunk: string): void {
    let start = 0;
    let nl = chunk.indexOf('\n');
    if (nl < 0) {
      this.checkLength(this.pending.length + chunk.length);
      this.pending += chunk;
      return;
    }
    // The line the previous chunks began: only that piece is joined, the chunk itself is never
    // copied, and every other line is a slice of it.
    if (this.pending.length > 0) {
      this.checkLength(this.pending.length + nl);
      this.emit(this.pending + chunk.slice(0, nl));
      this.pending = '';
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    while (nl >= 0) {
      if (nl > start) {
        this.checkLength(nl - start);
        this.emit(chunk.slice(start, nl));
      }
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) {
      this.checkLength(chunk.length - start);
      this.pending = chunk.slice(start);
    }
  }

  private checkLength(length: number): void {
    if (length <= this.maxLineLength) return;
    this.pending = '';
    throw new LineTooLongError(this.maxLineLength);
  }

  private emit(line: string): void {
    const end = line.charCodeAt(line.length - 1) === 13 ? line.length - 1 : line.length;
    if (end > 0) this.sink(end === line.length ? line : line.slice(0, end));
  }

  /** The stream ended: a last line without a trailing newline still counts. */
  end(): void {
    const rest = this.pending.trim();
    this.pending = '';
    if (rest.length > 0) this.sink(rest);
  }

  /** Characters held back waiting for their newline. */
  get buffered(): number {
    return this.pending.length;
  }
}

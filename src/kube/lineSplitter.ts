// Splits a stream of text chunks into lines. Chunks arrive wherever TCP cut them, so a line may span
// any number of chunks; only complete lines are handed on. The caller decodes bytes to text first
// (a StringDecoder keeps multi-byte characters that straddle two chunks intact).

/** Receives every complete line, without its `\n` (a trailing `\r` is dropped too). Empty lines are skipped. */
export type LineSink = (line: string) => void;

export class LineSplitter {
  private pending = '';
  private readonly sink: LineSink;

  constructor(sink: LineSink) {
    this.sink = sink;
  }

  /** Feeds one chunk; calls the sink once per line completed by it, in order. */
  push(chunk: string): void {
    const text = this.pending.length === 0 ? chunk : this.pending + chunk;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      let end = nl;
      if (end > start && text.charCodeAt(end - 1) === 13) end--;
      if (end > start) this.sink(text.slice(start, end));
      start = nl + 1;
    }
    this.pending = start === 0 ? text : text.slice(start);
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

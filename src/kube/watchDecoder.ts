import type { KubeObject, WatchEvent } from '../shared/k8s.ts';
import { LineSplitter } from './lineSplitter.ts';

// A watch body is newline-delimited JSON, one `{"type": …, "object": …}` per line. This turns text
// chunks into events. A line that is not a watch event is counted and reported — never skipped —
// because an event silently lost is a cache silently wrong.

// A switch, not a Set: each parsed `type` is a fresh string, and a Set lookup would hash it.
function isEventType(type: unknown): boolean {
  switch (type) {
    case 'MODIFIED':
    case 'ADDED':
    case 'DELETED':
    case 'BOOKMARK':
    case 'ERROR':
      return true;
    default:
      return false;
  }
}

/** A watch line that was not valid JSON, or not a watch event. */
export class WatchDecodeError extends Error {
  readonly line: string;
  constructor(reason: string, line: string) {
    super(`malformed watch event (${reason}): ${line.length > 120 ? `${line.slice(0, 120)}…` : line}`);
    this.name = 'WatchDecodeError';
    this.line = line;
  }
}

export interface WatchDecoderSink<T extends KubeObject> {
  event(event: WatchEvent<T>): void;
  malformed(error: WatchDecodeError): void;
}

export class WatchDecoder<T extends KubeObject = KubeObject> {
  private readonly splitter: LineSplitter;
  /** Lines that were not watch events. */
  malformedLines = 0;
  events = 0;

  /**
   * `maxLineLength`: see LineSplitter; `push` throws LineTooLongError past it. `prepareText`: applied
   * to each line before it is parsed (a transform's text form; the line is reported as it came).
   */
  constructor(sink: WatchDecoderSink<T>, maxLineLength = Infinity, prepareText?: (json: string, inEvent: boolean) => string) {
    this.splitter = new LineSplitter((line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(prepareText ? prepareText(line, true) : line);
      } catch {
        this.malformedLines++;
        sink.malformed(new WatchDecodeError('not JSON', line));
        return;
      }
      const ev = parsed as WatchEvent<T>;
      if (typeof ev !== 'object' || ev === null || !isEventType(ev.type) || typeof ev.object !== 'object' || ev.object === null) {
        this.malformedLines++;
        sink.malformed(new WatchDecodeError('not a watch event', line));
        return;
      }
      this.events++;
      sink.event(ev);
    }, maxLineLength);
  }

  push(chunk: string): void {
    this.splitter.push(chunk);
  }

  end(): void {
    this.splitter.end();
  }
}

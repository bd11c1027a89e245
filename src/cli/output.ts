import type { Writable } from 'node:stream';

// Terminal output for streams of events: lines are gathered and written once per turn of the event
// loop, so a burst of thousands of events costs a handful of writes, not one each.

export class BatchedWriter {
  private pending: string[] = [];
  private scheduled = false;
  private readonly out: Writable;

  constructor(out: Writable) {
    this.out = out;
  }

  line(text: string): void {
    this.pending.push(text);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes what is gathered; the callback runs once the stream accepted it. */
  flush(done?: () => void): void {
    this.scheduled = false;
    if (this.pending.length === 0) {
      done?.();
      return;
    }
    const text = `${this.pending.join('\n')}\n`;
    this.pending = [];
    if (done) this.out.write(text, () => done());
    else this.out.write(text);
  }
}

/** kubectl's short ages: 42s, 5m, 3h, 12d. */
export function age(creationTimestamp: string | undefined, now: number): string {
  if (!creationTimestamp) return '<unknown>';
  const seconds = Math.max(0, Math.floor((now - Date.parse(creationTimestamp)) / 1000));
  if (Number.isNaN(seconds)) return '<unknown>';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

/** Columns padded to fixed widths; a longer value just pushes the rest of its line right (as kubectl -w). */
export function columns(values: string[], widths: number[]): string {
  return values.map((v, i) => (i < values.length - 1 ? v.padEnd(widths[i] ?? 0) : v)).join('   ').trimEnd();
}

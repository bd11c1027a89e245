// Large response bodies, written a chunk at a time by one pump shared by every response of the
// process: each turn serves the waiting responses in turn, one chunk each, for at most TURN_BUDGET_MS,
// then yields to I/O (setImmediate), so health checks and small requests are answered between
// chunks however many big LISTs are in flight. A response whose socket is full waits for 'drain'
// (nothing more is produced for it meanwhile); one whose client went away is dropped, and the
// rest of its body is never produced.
import type { ServerResponse } from 'node:http';
import { Deque } from '../store/deque.ts';

/** Work per event-loop turn before the pump yields to I/O. */
const TURN_BUDGET_MS = 4;

interface Pumped {
  res: ServerResponse;
  chunks: Iterator<string>;
  gone: boolean;
}

const ready = new Deque<Pumped>();
let scheduled = false;

function schedule(): void {
  if (scheduled || ready.length === 0) return;
  scheduled = true;
  setImmediate(run);
}

function run(): void {
  scheduled = false;
  const start = performance.now();
  while (ready.length > 0 && performance.now() - start < TURN_BUDGET_MS) {
    const p = ready.shift()!;
    if (p.gone) continue;
    let step: IteratorResult<string>;
    try {
      step = p.chunks.next();
    } catch {
      // The status line went out long ago: all that is left to say is that the body is broken.
      p.res.destroy();
      continue;
    }
    if (step.done) {
      p.res.end();
      continue;
    }
    if (p.res.write(step.value)) {
      ready.push(p);
    } else {
      p.res.once('drain', () => {
        ready.push(p);
        schedule();
      });
    }
  }
  schedule();
}

/**
 * Streams `chunks` as the body of `res` (whose headers the caller has set, without Content-Length).
 * Chunks are produced only as the client takes them.
 */
export function pumpBody(res: ServerResponse, chunks: Iterator<string>): void {
  const p: Pumped = { res, chunks, gone: false };
  res.once('close', () => {
    p.gone = true;
  });
  ready.push(p);
  schedule();
}

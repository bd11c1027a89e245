// Large response bodies, written a chunk at a time by one pump shared by every response of the
// process. Each turn writes for at most TURN_BUDGET_MS, then yields to I/O (setImmediate), so health
// checks and small requests are answered between chunks however many big LISTs are in flight.
// Responses are served oldest first, each for as long as its socket takes data: a client that reads
// gets its list at full speed and the first ones finish early, instead of all of them sharing the
// CPU until they all finish late. A response whose socket is full waits for 'drain' apart (nothing
// more is produced for it meanwhile); one whose client went away is dropped, and the rest of its
// body is never produced.
import type { ServerResponse } from 'node:http';
import { Deque } from '../store/deque.ts';

/** Work per event-loop turn before the pump yields to I/O. */
const TURN_BUDGET_MS = 4;

interface Pumped {
  res: ServerResponse;
  chunks: Iterator<string | Buffer>;
  gone: boolean;
}

const ready = new Deque<Pumped>();
/** Requests waiting for a turn of their own to do a big piece of work (see takeTurn). */
const waiting = new Deque<() => void>();
let scheduled = false;

function schedule(): void {
  if (scheduled || (ready.length === 0 && waiting.length === 0)) return;
  scheduled = true;
  setImmediate(run);
}

function run(): void {
  scheduled = false;
  // One waiter per turn: its work runs right after this callback, before the next I/O poll.
  waiting.shift()?.();
  const start = performance.now();
  while (ready.length > 0 && performance.now() - start < TURN_BUDGET_MS) {
    const p = ready.peek()!;
    if (p.gone) {
      ready.shift();
      continue;
    }
    let step: IteratorResult<string | Buffer>;
    try {
      step = p.chunks.next();
    } catch {
      // The status line went out long ago: all that is left to say is that the body is broken.
      ready.shift();
      p.res.destroy();
      continue;
    }
    if (step.done) {
      ready.shift();
      p.res.end();
    } else if (!writeNow(p.res, step.value)) {
      ready.shift();
      p.res.once('drain', () => {
        ready.push(p);
        schedule();
      });
    }
  }
  schedule();
}

/**
 * Writes `chunk` before returning. A chunked HTTP response corks its socket and flushes on the
 * next tick, after this turn's budget was counted: the encryption and the system call of every
 * chunk written in the turn would then run together, unmeasured. Corking first makes the write's
 * own uncork flush at once, so the turn's budget covers what the writes cost.
 */
function writeNow(res: ServerResponse, chunk: string | Buffer): boolean {
  const socket = res.socket;
  if (!socket || socket.writableCorked > 0) return res.write(chunk);
  socket.cork();
  const more = res.write(chunk);
  socket.uncork();
  return more;
}

/**
 * Streams `chunks` as the body of `res` (whose headers the caller has set, without Content-Length).
 * Chunks are produced only as the client takes them.
 */
export function pumpBody(res: ServerResponse, chunks: Iterator<string | Buffer>): void {
  const p: Pumped = { res, chunks, gone: false };
  res.once('close', () => {
    p.gone = true;
  });
  ready.push(p);
  schedule();
}

/**
 * Resolves in an event-loop turn of its own, I/O polled before and after: a request about to do a
 * big synchronous piece of work (listing 10k objects) awaits it first, so a hundred such requests
 * arriving together take a hundred turns, with health checks answered between them.
 */
export function takeTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}

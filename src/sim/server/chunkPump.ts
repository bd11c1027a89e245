// Large response bodies, written a chunk at a time by one pump shared by every response of the
// process. Each turn writes for at most TURN_BUDGET_MS, then yields to I/O (setImmediate), so health
// checks and small requests are answered between chunks however many big LISTs are in flight.
// At most MAX_STREAMING bodies are written at once, oldest first; the others wait their turn (their
// headers not yet sent): forty clients reading forty 10 MB lists through one loaded machine would
// otherwise all finish late together, and now the first ones finish early. A body whose client
// stops reading for SLOW_READER_MS gives its place to the next in line and queues again once its
// socket drains, so clients that never read hold no one up. A response whose socket is full waits
// for 'drain' apart (nothing more is produced for it meanwhile); one whose client went away is
// dropped, and the rest of its body is never produced.
import type { ServerResponse } from 'node:http';
import { Deque } from '../store/deque.ts';
import { speaksHttp2 } from './http2Settings.ts';

/** Work per event-loop turn before the pump yields to I/O. */
const TURN_BUDGET_MS = 4;
/** Bodies being written at once. */
const MAX_STREAMING = 4;
/** How long a client may leave its socket full before its place goes to the next body in line. */
const SLOW_READER_MS = 1000;

interface Pumped {
  res: ServerResponse;
  chunks: Iterator<string | Buffer>;
  gone: boolean;
  /** Counted in `streaming`. */
  streaming: boolean;
}

/** Bodies with a place that can be written now. */
const ready = new Deque<Pumped>();
/** Bodies waiting for a place, oldest first. */
const queued = new Deque<Pumped>();
let streaming = 0;
/** Requests waiting for a turn of their own to do a big piece of work (see takeTurn). */
const waiting = new Deque<() => void>();
let scheduled = false;

function schedule(): void {
  if (scheduled || (ready.length === 0 && waiting.length === 0)) return;
  scheduled = true;
  setImmediate(run);
}

function promote(): void {
  while (streaming < MAX_STREAMING && queued.length > 0) {
    const p = queued.shift()!;
    if (p.gone) continue;
    p.streaming = true;
    streaming++;
    ready.push(p);
  }
  schedule();
}

function release(p: Pumped): void {
  if (!p.streaming) return;
  p.streaming = false;
  streaming--;
  promote();
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
      release(p);
      continue;
    }
    let step: IteratorResult<string | Buffer>;
    try {
      step = p.chunks.next();
    } catch {
      // The status line went out long ago: all that is left to say is that the body is broken.
      ready.shift();
      p.res.destroy();
      release(p);
      continue;
    }
    if (step.done) {
      ready.shift();
      p.res.end();
      release(p);
    } else if (!writeNow(p.res, step.value)) {
      ready.shift();
      const slow = setTimeout(() => release(p), SLOW_READER_MS);
      p.res.once('drain', () => {
        clearTimeout(slow);
        if (p.streaming) ready.push(p);
        else queued.push(p);
        promote();
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
  // An HTTP/2 stream's frames go out when the session next writes, for every stream at once; its
  // socket is shared by them all and not this response's to cork.
  if (speaksHttp2(res.req)) return res.write(chunk);
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
  const p: Pumped = { res, chunks, gone: false, streaming: false };
  res.once('close', () => {
    p.gone = true;
    release(p);
  });
  queued.push(p);
  promote();
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

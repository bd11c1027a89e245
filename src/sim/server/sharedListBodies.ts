// Big LIST answers as pages of UTF-8 bytes, made once and shared by every response to the same
// request at the same resourceVersion (kube-apiserver's watch cache serves lists from memory in the
// same spirit): a storm of identical LISTs serializes the objects once, and each answer is a run of
// buffers written as its client reads them. Pages are made as the fastest reader reaches them, so
// nothing is serialized past what some client asked for, and let go once the slowest reader is past
// them: a list read by one client holds one page at a time. A request joins a body only while its
// first page is still held; a body is dropped when its last reader finishes or goes away, so
// nothing stays after a storm.
import type { ServerResponse } from 'node:http';
import { listJsonChunks } from '../store/listing.ts';
import type { ListResult } from '../store/types.ts';

/** About how much JSON one page holds: big enough to write efficiently, small enough for one turn. */
const PAGE_CHARS = 64 * 1024;

interface Reader {
  /** The next page this reader will take. */
  next: number;
}

class SharedBody {
  /** Pages made so far; those every reader is past are let go (undefined). */
  readonly pages: (Buffer | undefined)[] = [];
  readonly readers = new Set<Reader>();
  private source: Iterator<string> | undefined;
  private failure: unknown;

  constructor(list: Omit<ListResult, 'json'>) {
    this.source = listJsonChunks(list, PAGE_CHARS);
  }

  /** Whether a new reader can still start from the first page. */
  get joinable(): boolean {
    return this.pages.length === 0 || this.pages[0] !== undefined;
  }

  /** The reader's next page (made now if no reader has reached it yet); undefined past the end. Throws for every reader if the body cannot be made. */
  take(reader: Reader): Buffer | undefined {
    const page = this.page(reader.next++);
    let slowest = Infinity;
    for (const r of this.readers) slowest = Math.min(slowest, r.next);
    for (let i = slowest - 1; i >= 0 && this.pages[i] !== undefined; i--) this.pages[i] = undefined;
    return page;
  }

  private page(i: number): Buffer | undefined {
    while (this.pages.length <= i && this.source) {
      let step: IteratorResult<string>;
      try {
        step = this.source.next();
      } catch (err) {
        this.failure = err;
        this.source = undefined;
        break;
      }
      if (step.done) this.source = undefined;
      else this.pages.push(Buffer.from(step.value, 'utf8'));
    }
    if (i >= this.pages.length && this.failure !== undefined) throw this.failure;
    return this.pages[i];
  }
}

/** Bodies a request can join, by key. */
const bodies = new Map<string, SharedBody>();
/** Every body some response is still reading (joinable or not). */
const live = new Set<SharedBody>();

/**
 * The body of `list` for `res`, page by page. `key` names the request (resource, namespace,
 * selectors, paging) and the list's resourceVersion: two requests with the same key get the same bytes.
 */
export function sharedListPages(key: string, list: Omit<ListResult, 'json'>, res: ServerResponse): Iterator<Buffer> {
  let body = bodies.get(key);
  if (!body?.joinable) {
    body = new SharedBody(list);
    bodies.set(key, body);
    live.add(body);
  }
  const shared = body;
  const reader: Reader = { next: 0 };
  shared.readers.add(reader);
  res.once('close', () => {
    shared.readers.delete(reader);
    if (shared.readers.size > 0) return;
    live.delete(shared);
    if (bodies.get(key) === shared) bodies.delete(key);
  });
  return {
    next(): IteratorResult<Buffer> {
      const page = shared.take(reader);
      if (page === undefined) return { done: true, value: undefined };
      if (!shared.joinable && bodies.get(key) === shared) bodies.delete(key);
      return { done: false, value: page };
    },
  };
}

/** Bodies held now (each for as long as one of its responses is being written). */
export function sharedListBodyCount(): number {
  return live.size;
}

/** Bytes of pages those bodies hold now. */
export function sharedListBytesHeld(): number {
  let bytes = 0;
  for (const body of live) for (const page of body.pages) bytes += page?.length ?? 0;
  return bytes;
}

// Big LIST answers as pages of UTF-8 bytes, made once and shared by every response to the same
// request at the same resourceVersion (kube-apiserver's watch cache serves lists from memory in the
// same spirit): a storm of identical LISTs serializes the objects once, and each answer is a run of
// buffers written as its client reads them. Pages are made as the fastest reader reaches them, so
// nothing is serialized past what some client asked for. A body is dropped when its last reader
// finishes or goes away: nothing stays after a storm.
import type { ServerResponse } from 'node:http';
import { listJsonChunks } from '../store/listing.ts';
import type { ListResult } from '../store/types.ts';

/** About how much JSON one page holds: big enough to write efficiently, small enough for one turn. */
const PAGE_CHARS = 64 * 1024;

class SharedBody {
  readonly pages: Buffer[] = [];
  readers = 0;
  private source: Iterator<string> | undefined;
  private failure: unknown;

  constructor(list: Omit<ListResult, 'json'>) {
    this.source = listJsonChunks(list, PAGE_CHARS);
  }

  /** Page `i`, made now if no reader has reached it yet; undefined past the end. Throws for every reader if the body cannot be made. */
  page(i: number): Buffer | undefined {
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

const bodies = new Map<string, SharedBody>();

/**
 * The body of `list` for `res`, page by page. `key` names the request (resource, namespace,
 * selectors, paging) and the list's resourceVersion: two requests with the same key get the same bytes.
 */
export function sharedListPages(key: string, list: Omit<ListResult, 'json'>, res: ServerResponse): Iterator<Buffer> {
  let body = bodies.get(key);
  if (!body) {
    body = new SharedBody(list);
    bodies.set(key, body);
  }
  const shared = body;
  shared.readers++;
  res.once('close', () => {
    if (--shared.readers === 0 && bodies.get(key) === shared) bodies.delete(key);
  });
  let next = 0;
  return {
    next(): IteratorResult<Buffer> {
      const page = shared.page(next++);
      return page === undefined ? { done: true, value: undefined } : { done: false, value: page };
    },
  };
}

/** Bodies held now (each for as long as one of its responses is being written). */
export function sharedListBodyCount(): number {
  return bodies.size;
}

import { ITEMS_PREPARED } from '../informer/index.ts';
import type { TextTransform } from '../informer/index.ts';
import { ApiError } from '../shared/apiError.ts';
import type { KubeList, KubeObject } from '../shared/k8s.ts';
import { namingCut } from './errors.ts';
import { ListDecoder, ListTooLargeItemError } from './listDecoder.ts';
import { DECODE_SLICE_MS, MAX_STRING_LENGTH, stallGuard, streamRequest } from './request.ts';
import type { RequestOptions } from './request.ts';
import type { Transport } from './transport.ts';

// A LIST whose items are parsed as they arrive (see ListDecoder): the whole body is never held at
// once, so a list of any size costs little more than the objects it brings.
//
// Parsing is done in slices of at most SLICE_MS, each followed by a turn of the event loop. A socket
// that has fallen behind hands over megabytes in one turn (libuv reads up to 32 × 64 KB per poll):
// parsed at once, that was 2 MB of Pods — 365 of them, 100–250 ms — during which nothing else ran
// (the extension host's other extensions, the views, timers). While we yield, the body waits in the
// stream, which stops reading the socket: memory stays bounded too.

/** Longest run of parsing (ms) before the event loop gets a turn; one item may overrun it. */
const SLICE_MS = DECODE_SLICE_MS;

/**
 * A body up to this size is parsed at once, by one native JSON.parse (a few ms), as most lists
 * are small: the streaming scan is JavaScript, which V8 has not compiled yet on an informer's
 * first list (a 1 MB list of ConfigMaps took 44 ms to scan cold, 5 ms to parse whole).
 */
const WHOLE_BODY_BYTES = 2 * 1024 * 1024;

/**
 * `prepareItem` is applied to each item as it is parsed; the list then says so (ITEMS_PREPARED).
 * `prepareText`, to each item's text before it is parsed.
 */
export async function listRequest<T extends KubeObject>(transport: Transport, path: string, options: RequestOptions = {}, prepareItem?: (item: T) => T, prepareText?: TextTransform): Promise<KubeList<T> & { [ITEMS_PREPARED]?: boolean }> {
  const res = await streamRequest(transport, path, options);
  const what = `${options.method ?? 'GET'} ${path}`;
  const invalid = (detail: string): ApiError => new ApiError(res.statusCode, `the server sent invalid JSON for ${path} (${detail})`, 'InvalidResponse');
  const decoder = new ListDecoder<T>(MAX_STRING_LENGTH, prepareItem, prepareText);
  const stall = stallGuard(transport, `in the middle of the answer to ${what}`);
  const timer = stall ? setTimeout(() => res.body.destroy(stall.error()), stall.ms) : undefined;
  let bytes = 0;
  // A slice ends SLICE_MS after it began, or earlier when the event loop went round meanwhile (we
  // waited for the socket): then the next chunk starts a new one.
  let sliceEnds = 0;
  let loopWentRound = true;
  const newSlice = (): void => {
    sliceEnds = performance.now() + SLICE_MS;
    loopWentRound = false;
    setImmediate(() => (loopWentRound = true));
  };
  const feed = async (chunk: Buffer): Promise<void> => {
    if (loopWentRound) newSlice();
    for (let at = 0; at < chunk.length; ) {
      at += decoder.push(at === 0 ? chunk : chunk.subarray(at), sliceEnds);
      if (performance.now() < sliceEnds) continue;
      await nextTurn();
      timer?.refresh();
      newSlice();
    }
  };
  // The body so far, while it may still be small enough to parse whole.
  let held: Buffer[] | undefined = [];
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      timer?.refresh();
      bytes += chunk.length;
      if (held !== undefined) {
        if (bytes <= WHOLE_BODY_BYTES) {
          held.push(chunk);
          continue;
        }
        // Too large: the decoder takes it from the first byte.
        const earlier = held;
        held = undefined;
        for (const piece of earlier) await feed(piece);
      }
      await feed(chunk);
    }
  } catch (err) {
    res.body.destroy();
    if (err instanceof ListTooLargeItemError) throw new ApiError(res.statusCode, `an item in the answer to ${what} is larger than ${MAX_STRING_LENGTH} bytes, more than can be parsed`, 'InvalidResponse');
    if (err instanceof SyntaxError) throw invalid(`an item after ${bytes} bytes: ${err.message}`);
    // Anything else: the connection failed, or prepareItem (a transform) threw.
    throw namingCut(err, transport.server.origin, `the answer to ${what}`);
  } finally {
    clearTimeout(timer);
  }
  let decoded: ReturnType<ListDecoder<T>['end']>;
  try {
    decoded = held !== undefined ? parseWhole<T>(Buffer.concat(held, bytes)) : decoder.end();
  } catch (err) {
    throw invalid(`${bytes} bytes: ${err instanceof Error ? err.message : String(err)}`);
  }
  const list = decoded.list as unknown as KubeList<T> & { [ITEMS_PREPARED]?: boolean };
  // A transform that throws is the caller's error, not the body's: applied outside the try.
  list.items = held !== undefined && prepareItem ? await prepareInSlices(decoded.items, prepareItem) : decoded.items;
  if (prepareItem) list[ITEMS_PREPARED] = true;
  return list;
}

/**
 * A small body parsed at once, read as ListDecoder reads a streamed one: the items that are
 * objects, not yet prepared (the text form is left out: the transform itself gives the same objects).
 */
function parseWhole<T>(body: Buffer): { list: Record<string, unknown>; items: T[] } {
  const list = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  const all: unknown = typeof list === 'object' && list !== null ? list['items'] : undefined;
  const items = Array.isArray(all) ? (all.filter((i) => typeof i === 'object' && i !== null && !Array.isArray(i)) as T[]) : [];
  return { list, items };
}

/** `prepare` applied to every item, SLICE_MS at a time, as the streamed decoder applies it. */
async function prepareInSlices<T>(items: T[], prepare: (item: T) => T): Promise<T[]> {
  let sliceEnds = performance.now() + SLICE_MS;
  for (let i = 0; i < items.length; i++) {
    items[i] = prepare(items[i]!);
    if (performance.now() < sliceEnds) continue;
    await nextTurn();
    sliceEnds = performance.now() + SLICE_MS;
  }
  return items;
}

/** Resolves after the event loop has run its pending timers and I/O (a macrotask, not a microtask). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

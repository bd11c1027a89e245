// A watch over HTTP: status 200 at once, then one JSON object per line on a chunked response. The
// store delivers events in batches (one microtask each); we collect their pre-serialized lines and
// write them as one Buffer per batch (or per 256 KB of a long replay), so a burst of 10k events costs
// a handful of TLS records, not 10k. (Appending to one string would build a rope that Node must
// flatten to measure and again to encode: that cost more than the rest of the delivery.)
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GroupVersionResource } from '../../shared/k8s.ts';
import type { SimClusterApi } from '../simCluster.ts';
import type { RequestContext, SimWatch, SimWatchEvent, WatchCloseReason, WatchRequest } from '../store/types.ts';
import type { IncludeObject } from './queryParameters.ts';
import { renderTable } from './table.ts';
import type { TableColumn } from './tableCells.ts';

/** A batch is written out early once it holds this many characters, so a long replay streams. */
const EARLY_WRITE_CHARS = 256 * 1024;

/** A watcher whose client reads slower than this many buffered bytes is cut off (it will rewatch). */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export interface WatchResponseOptions {
  cluster: SimClusterApi;
  gvr: GroupVersionResource;
  request: WatchRequest;
  ctx: RequestContext;
  /** Set when the client asked for Tables (`kubectl get -w`). */
  table?: { includeObject: IncludeObject; columns: TableColumn[] };
  /** Called once the stream ends, however it ends. */
  onEnd?: () => void;
}

export function serveWatch(req: IncomingMessage, res: ServerResponse, options: WatchResponseOptions): void {
  const { cluster, gvr, table } = options;
  let pending: string[] = [];
  let pendingChars = 0;
  let flushScheduled = false;
  let ended = false;
  let firstTableEvent = true;

  const takePending = (): Buffer => {
    const chunk = Buffer.from(pending.join(''));
    pending = [];
    pendingChars = 0;
    return chunk;
  };

  const flush = () => {
    flushScheduled = false;
    if (ended || pendingChars === 0) return;
    res.write(takePending());
    if (res.writableLength > MAX_BUFFERED_BYTES) finish(true);
  };

  const finish = (stopWatch: boolean) => {
    if (ended) return;
    if (pendingChars > 0) res.write(takePending());
    ended = true;
    if (stopWatch) watch.stop(); // never synchronous with cluster.watch(): events and closes come later
    res.end();
    options.onEnd?.();
  };

  const lineFor = (event: SimWatchEvent): string => {
    if (!table || event.type === 'ERROR' || event.type === 'BOOKMARK') return event.line();
    const rendered = renderTable([event.object], { resourceVersion: event.object.metadata.resourceVersion ?? '' }, {
      columns: table.columns,
      includeObject: table.includeObject,
      now: cluster.clock.now(),
      withColumnDefinitions: firstTableEvent,
    });
    firstTableEvent = false;
    return `{"type":"${event.type}","object":${rendered}}`;
  };

  // Opening the watch may throw (bad selector, unserved resource): the caller answers that as a
  // Status, so the 200 is written only after the store accepted the watch.
  const watch: SimWatch = cluster.watch(gvr, options.request, {
    event(event) {
      if (ended) return;
      const line = lineFor(event);
      pending.push(line, '\n');
      pendingChars += line.length + 1;
      if (pendingChars >= EARLY_WRITE_CHARS) {
        flush();
      } else if (!flushScheduled) {
        flushScheduled = true;
        queueMicrotask(flush);
      }
    },
    close(_reason: WatchCloseReason) {
      finish(false);
    },
  }, options.ctx);

  if (!ended) {
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
    });
    // Headers go out now, so the client knows the watch is established before the first event.
    res.flushHeaders();
  }
  const onGone = () => finish(true);
  req.on('close', onGone);
  res.on('close', onGone);
  // The client may have gone while the request was being routed: its 'close' has fired already.
  if (res.destroyed || res.socket === null || res.socket.destroyed) finish(true);
}

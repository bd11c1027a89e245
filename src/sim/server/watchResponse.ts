// A watch over HTTP: status 200 at once, then one JSON object per line on a chunked response. The
// store delivers events in batches (one microtask each); we collect their pre-serialized lines and
// write them as one Buffer per batch (or per 256 KB of a long replay), so a burst of 10k events costs
// a handful of TLS records, not 10k. (Appending to one string would build a rope that Node must
// flatten to measure and again to encode: that cost more than the rest of the delivery.)
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';
import type { SimClusterApi } from '../simCluster.ts';
import type { RequestContext, SimWatch, SimWatchEvent, WatchCloseReason, WatchRequest } from '../store/types.ts';
import type { IncludeObject } from './queryParameters.ts';
import { speaksHttp2 } from './http2Settings.ts';
import { statusFromError } from './status.ts';
import { partialObjectMetadataJson } from './partialMetadata.ts';
import { renderTable } from './table.ts';
import type { TableColumn } from '../vocabulary/tableCells.ts';

// Socket backpressure is respected: when a write returns false the watch is paused until 'drain',
// so a client that does not read holds one batch here, not every event since; the store closes a
// watch that stays paused past its buffer (reason 'slow'), and we end its response.

/** A batch is written out early once it holds this many characters, so a long replay streams. */
const EARLY_WRITE_CHARS = 64 * 1024;

/** A response ended because its client did not read is destroyed if it has not drained by then. */
const SLOW_CLOSE_GRACE_MS = 5000;

export interface WatchResponseOptions {
  cluster: SimClusterApi;
  gvr: GroupVersionResource;
  request: WatchRequest;
  ctx: RequestContext;
  /** Set when the client asked for Tables (`kubectl get -w`). */
  table?: { includeObject: IncludeObject; columns: TableColumn[] };
  /** Set when the client asked for PartialObjectMetadata (client-go's metadata client). */
  metadataOnly?: boolean;
  /** Set when the watched resource is another API's view of the stored one (events.k8s.io Events). */
  convert?: (obj: Readonly<KubeObject>) => KubeObject;
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

  let paused = false;
  const onDrain = () => {
    paused = false;
    if (!ended) watch.resume();
  };

  const flush = () => {
    flushScheduled = false;
    // Ended by the server's stop (openHttp2Responses.ts) ahead of its 'close'.
    if (ended || pendingChars === 0 || res.writableEnded) return;
    if (!res.write(takePending()) && !paused) {
      paused = true;
      watch.pause();
      res.once('drain', onDrain);
    }
  };

  const finish = (stopWatch: boolean, reason?: WatchCloseReason) => {
    if (ended) return;
    if (pendingChars > 0 && !res.writableEnded) res.write(takePending());
    ended = true;
    if (stopWatch) watch.stop(); // never synchronous with cluster.watch(): events and closes come later
    res.end();
    if (reason === 'slow' && !res.writableFinished) {
      // A client that stopped reading may never take the end of the stream: free its buffers.
      const timer = setTimeout(() => res.destroy(), SLOW_CLOSE_GRACE_MS);
      timer.unref();
      res.once('close', () => clearTimeout(timer));
    }
    options.onEnd?.();
  };

  const lineFor = (event: SimWatchEvent): string => {
    if (event.type === 'ERROR') return event.line();
    // Bookmarks too: the metadata client decodes every event's object as PartialObjectMetadata.
    if (options.metadataOnly) return `{"type":"${event.type}","object":${partialObjectMetadataJson(event.object)}}`;
    if (options.convert && !table) return JSON.stringify({ type: event.type, object: options.convert(event.object) });
    if (!table || event.type === 'BOOKMARK') return event.line();
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
      let line: string;
      try {
        line = lineFor(event);
      } catch (err) {
        // An event we cannot serialize ends this stream with an ERROR event, never the process.
        line = JSON.stringify({ type: 'ERROR', object: statusFromError(err) });
        pending.push(line, '\n');
        pendingChars += line.length + 1;
        finish(true);
        return;
      }
      pending.push(line, '\n');
      pendingChars += line.length + 1;
      if (pendingChars >= EARLY_WRITE_CHARS) {
        flush();
      } else if (!flushScheduled) {
        flushScheduled = true;
        queueMicrotask(flush);
      }
    },
    close(reason: WatchCloseReason) {
      finish(false, reason);
    },
  }, options.ctx);

  if (!ended) {
    // Over HTTP/2 a stream's DATA frames carry the events; chunked encoding is HTTP/1.1's alone.
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, private',
      ...(speaksHttp2(req) ? {} : { 'Transfer-Encoding': 'chunked' }),
    });
    // Headers go out now, so the client knows the watch is established before the first event.
    res.flushHeaders();
  }
  const onGone = () => finish(true);
  req.on('close', onGone);
  res.on('close', onGone);
  // The client may have gone while the request was being routed: its 'close' has fired already.
  // (An HTTP/2 response whose stream closed has no socket: undefined, where HTTP/1.1's is null.)
  if (res.destroyed || !res.socket || res.socket.destroyed) finish(true);
}

import type { ITEMS_PREPARED, ListerWatcher, ListOptions, TextTransform, WatchHandle, WatchOptions, WatchSink } from '../informer/index.ts';
import { apiVersionOf, type ApiResource, type KubeList, type KubeObject, type WatchEvent } from '../shared/k8s.ts';
import { EventTooLargeError, namingCut } from './errors.ts';
import { LineTooLongError } from './lineSplitter.ts';
import { listRequest } from './listRequest.ts';
import { DECODE_SLICE_MS, stallGuard, streamRequest } from './request.ts';
import { collectionPath } from './resourcePath.ts';
import type { Transport } from './transport.ts';
import { WatchDecoder } from './watchDecoder.ts';
import { isJsonContentType, wrongContentType } from './wrongContentType.ts';

// The ListerWatcher for a real API server: a list is one GET whose items are parsed as they arrive; a watch is one long GET whose body we
// stream line by line (not client-node's Watch, not a fetch per event), so the informer sees each
// event as soon as its line is complete.

export interface ResourceScope {
  /** Unset or '' for all namespaces (or a cluster-scoped resource). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** Counters over the lifetime of one ListerWatcher; the CLI and the benchmark print them. */
export interface HttpListerWatcherStats {
  lists: number;
  watches: number;
  events: number;
  malformedLines: number;
}

export class HttpListerWatcher<T extends KubeObject = KubeObject> implements ListerWatcher<T> {
  readonly stats: HttpListerWatcherStats = { lists: 0, watches: 0, events: 0, malformedLines: 0 };
  private readonly transport: Transport;
  private readonly path: string;
  private readonly scope: ResourceScope;
  /** What listed items without kind and apiVersion are (kube-apiserver lists built-in kinds so). */
  private readonly itemType: { kind: string; apiVersion: string };

  constructor(transport: Transport, resource: ApiResource, scope: ResourceScope = {}) {
    this.transport = transport;
    this.scope = scope;
    this.itemType = { kind: resource.kind, apiVersion: apiVersionOf(resource) };
    this.path = collectionPath(resource, resource.namespaced ? scope.namespace : undefined);
  }

  async list(options: ListOptions, signal?: AbortSignal, prepareItem?: (item: T) => T, prepareText?: TextTransform): Promise<KubeList<T> & { [ITEMS_PREPARED]?: boolean }> {
    this.stats.lists++;
    const list = await listRequest<T>(this.transport, this.path, {
      query: {
        resourceVersion: options.resourceVersion,
        resourceVersionMatch: options.resourceVersionMatch,
        limit: options.limit,
        continue: options.continue,
        labelSelector: options.labelSelector ?? this.scope.labelSelector,
        fieldSelector: options.fieldSelector ?? this.scope.fieldSelector,
      },
      signal,
      awaited: `the list of ${this.path}`,
    }, prepareItem ? (item) => prepareItem(this.typed(item)) : undefined, prepareText);
    list.items ??= [];
    list.metadata ??= {};
    if (!prepareItem) for (const item of list.items) this.typed(item);
    return list;
  }

  /**
   * kube-apiserver lists built-in kinds with bare items: they get their kind and apiVersion (before
   * any transform), as client-go's unstructured decoding does, so listed objects look like watched ones.
   */
  private typed(item: T): T {
    if (typeof item === 'object' && item !== null) {
      item.kind ??= this.itemType.kind;
      item.apiVersion ??= this.itemType.apiVersion;
    }
    return item;
  }

  async watch(options: WatchOptions, sink: WatchSink<T>, signal?: AbortSignal, prepareText?: TextTransform): Promise<WatchHandle> {
    const res = await streamRequest(this.transport, this.path, {
      query: {
        watch: 'true',
        resourceVersion: options.resourceVersion,
        resourceVersionMatch: options.resourceVersionMatch,
        allowWatchBookmarks: options.allowWatchBookmarks ? 'true' : undefined,
        sendInitialEvents: options.sendInitialEvents === undefined ? undefined : String(options.sendInitialEvents),
        timeoutSeconds: options.timeoutSeconds,
        labelSelector: options.labelSelector ?? this.scope.labelSelector,
        fieldSelector: options.fieldSelector ?? this.scope.fieldSelector,
      },
      signal,
    });
    this.stats.watches++;
    const contentType = res.headers['content-type'];
    if (!isJsonContentType(contentType)) {
      const stall = stallGuard(this.transport, `in the answer to the watch of ${this.path}`);
      const error = await wrongContentType(`the watch of ${this.path}`, res.statusCode, contentType ?? '', res.body, stall);
      res.destroy();
      throw error;
    }
    const cut = (err: Error): Error => namingCut(err, this.transport.server.origin, `the watch of ${this.path}`) as Error;
    return new StreamingWatch<T>(res.body, res.destroy, sink, this.stats, this.transport.maxEventLength, cut, signal, prepareText);
  }
}

/** One open watch: feeds decoded events to the sink until the body ends, fails, or `stop`. */
class StreamingWatch<T extends KubeObject> implements WatchHandle {
  private finished = false;
  private readonly destroy: () => void;
  private readonly sink: WatchSink<T>;
  private readonly onAbort = (): void => this.stop();
  private readonly signal: AbortSignal | undefined;

  constructor(body: NodeJS.ReadableStream, destroy: () => void, sink: WatchSink<T>, stats: HttpListerWatcherStats, maxEventLength: number, named: (err: Error) => Error, signal?: AbortSignal, prepareText?: TextTransform) {
    this.destroy = destroy;
    this.sink = sink;
    this.signal = signal;
    const decoder = new WatchDecoder<T>({
      event: (ev: WatchEvent<T>) => {
        if (this.finished) return;
        stats.events++;
        try {
          sink.event(ev);
        } catch (err) {
          this.fail(err instanceof Error ? err : new Error(String(err)));
        }
      },
      malformed: (err) => {
        stats.malformedLines++;
        this.fail(err);
      },
    }, maxEventLength, prepareText);
    body.setEncoding('utf8');
    // Events are decoded and handled DECODE_SLICE_MS at a time: past that the body is paused for
    // one turn of the event loop (what the socket already gave waits in the stream, in order).
    let sliceEnds = 0;
    let loopWentRound = true;
    body.on('data', (chunk: string) => {
      if (this.finished) return;
      if (loopWentRound) {
        sliceEnds = performance.now() + DECODE_SLICE_MS;
        loopWentRound = false;
        setImmediate(() => (loopWentRound = true));
      }
      try {
        decoder.push(chunk);
      } catch (err) {
        // Thrown inside a stream's 'data' handler, this would be an uncaught exception: the
        // process would die. It ends this watch instead; the informer resumes from its last RV.
        this.fail(err instanceof LineTooLongError ? new EventTooLargeError(err.limit) : err instanceof Error ? err : new Error(String(err)));
        return;
      }
      if (this.finished || performance.now() < sliceEnds) return;
      body.pause();
      setImmediate(() => {
        if (!this.finished) body.resume();
      });
    });
    body.on('end', () => {
      if (this.finished) return;
      decoder.end();
      this.finish();
    });
    body.on('error', (err: Error) => this.fail(named(err)));
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  stop(): void {
    if (this.finished) return;
    this.finished = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.destroy();
  }

  private fail(error: Error): void {
    if (this.finished) return;
    this.finish(error);
    this.destroy();
  }

  private finish(error?: Error): void {
    if (this.finished) return;
    this.finished = true;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.sink.close(error);
  }
}

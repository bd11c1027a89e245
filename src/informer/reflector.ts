import { ApiError, isExpired } from '../shared/apiError.ts';
import type { Clock, TimerHandle } from '../shared/clock.ts';
import { INITIAL_EVENTS_END_ANNOTATION, isStatus } from '../shared/k8s.ts';
import type { KubeObject, WatchEvent } from '../shared/k8s.ts';
import { Backoff } from './backoff.ts';
import { isTooLargeResourceVersion, retryAfterMs } from './serverVerdicts.ts';
import type { ReflectorStore } from './deltaFifo.ts';
import { ITEMS_PREPARED } from './listerWatcher.ts';
import type { ListerWatcher, WatchHandle, WatchSink } from './listerWatcher.ts';
import type { ProbeBus } from './probeBus.ts';
import { RelistPacing } from './relistPacing.ts';
import type { RelistPace } from './relistPacing.ts';
import { RepeatedValues } from './sharedValues.ts';
import { textFormOf } from './transforms.ts';
import type { TextTransform } from './transforms.ts';
import { LIST_ITEMS_PROBE_EVERY } from './probes.ts';

// client-go reflector.go: keeps a store in step with the server. List (paged, or streamed as a
// watch-list) → Replace → watch from the list's resourceVersion → on a clean close watch again from
// the last seen version → on 410 Gone list again → on other failures back off and retry.
// After `stop()` returns nothing reaches the store again.

export interface ReflectorStats {
  lists: number;
  listPages: number;
  watches: number;
  relists: number;
  expired: number;
  reconnects: number;
  events: number;
  bookmarks: number;
  malformed: number;
  errors: number;
  backoffs: number;
}

export interface ReflectorOptions<T extends KubeObject> {
  name: string;
  listerWatcher: ListerWatcher<T>;
  store: ReflectorStore<T>;
  clock: Clock;
  random: () => number;
  probes: ProbeBus;
  /** Items per list page (client-go: 500). 0 = no paging. */
  pageSize?: number | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  /** Try a streaming list (sendInitialEvents) first; fall back to a plain list if the server can't. */
  useWatchList?: boolean | undefined;
  /** A streaming list silent for this long before its end bookmark falls back to a plain list. */
  watchListIdleTimeoutMs?: number | undefined;
  /**
   * A watch that delivers nothing, not even a bookmark, for this long is closed and resumed from the
   * last resourceVersion; the warning waits for the resumed watch to tell a quiet kind from a dead
   * stream. Unset: as client-go, the watch ends at its own timeoutSeconds (5–10 min at random)
   * whether or not the server ends it, so a server without a watch cache (no bookmarks) is not asked
   * again every few minutes. 0 turns both off.
   */
  watchIdleTimeoutMs?: number | undefined;
  /** > 0: queue a `Sync` of every cached object this often. */
  resyncPeriodMs?: number | undefined;
  /** The informer's transform: list items go through it here (as they are decoded, when the backend can), not in the store. */
  transform?: ((obj: T) => T) | undefined;
  onError?: ((err: Error) => void) | undefined;
  /** A watch was accepted by the server. */
  onConnect?: (() => void) | undefined;
  /** The first list (or streaming list) was handed to the store. */
  onListed?: (() => void) | undefined;
}

/** One watch stream; callbacks of a finished stream are ignored. */
interface WatchSession<T extends KubeObject> {
  done: boolean;
  handle: WatchHandle | undefined;
  events: number;
  openedAt: number;
  /** When the server accepted the stream (clock time); undefined until then. */
  connectedAt: number | undefined;
  /** Streaming list: objects gathered before the initial-events-end bookmark. */
  initial: Map<string, T> | undefined;
  /** Their long repeated values, made one string as they arrive (see RepeatedValues). */
  initialValues: RepeatedValues | undefined;
  idleTimer: TimerHandle | undefined;
  /** Checks that the stream still delivers something (watchIdleTimeoutMs). */
  silenceTimer: TimerHandle | undefined;
  /** Cancels this stream's request while the server has not answered it yet. */
  abort: AbortController;
  resolve: (end: WatchEnd) => void;
}

type WatchEnd =
  | { kind: 'clean' }
  | { kind: 'stopped' }
  | { kind: 'expired'; via: 'http' | 'event' }
  /** The server's versions are behind ours (it lost its history): relist with a consistent read. */
  | { kind: 'behind'; error: Error }
  /** Nothing arrived for watchIdleTimeoutMs: resume from the last RV at once. */
  | { kind: 'silent'; silentMs: number }
  | { kind: 'error'; error: Error }
  /** The server answered the watch request with an error status: list again after the backoff. */
  | { kind: 'refused'; error: Error }
  /** A streaming list that did not complete: use a plain list instead. */
  | { kind: 'watchListFailed'; error: Error };

const MIN_WATCH_TIMEOUT_S = 300;
/**
 * A watch resumed after silence that delivers a change within this long of the server accepting it
 * was handed changes the server had queued: the silent stream was dead, not just quiet.
 */
const WITHHELD_CHANGE_MS = 2_000;

function resourceVersionOf(obj: unknown): string | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const meta = (obj as { metadata?: unknown }).metadata;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const rv = (meta as { resourceVersion?: unknown }).resourceVersion;
  return typeof rv === 'string' ? rv : undefined;
}

/** Why an object from the server cannot be cached, or undefined when it can. */
function malformation(obj: unknown): string | undefined {
  if (typeof obj !== 'object' || obj === null) return 'object is missing';
  const meta = (obj as { metadata?: unknown }).metadata;
  if (typeof meta !== 'object' || meta === null) return 'object has no metadata';
  const name = (meta as { name?: unknown }).name;
  if (typeof name !== 'string' || name === '') return 'object has no metadata.name';
  const ns = (meta as { namespace?: unknown }).namespace;
  if (ns !== undefined && typeof ns !== 'string') return 'metadata.namespace is not a string';
  return undefined;
}

function keyOfValid(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name}` : name!;
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

function behindError(rv: string, cause: unknown): Error {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new Error(`the server has no resourceVersion ${rv || '(any)'} yet (${why}): it may have restarted without its history; relisting`, { cause });
}

function repeatedRelistWarning(why: 'expired' | 'behind', pace: RelistPace): Error {
  const what = why === 'expired' ? 'keeps ending watches with 410 Gone' : 'keeps calling our resourceVersion too large';
  return new Error(`the server ${what} (${pace.inARow} in a row within ${(pace.sinceFirstMs / 1000).toFixed(1)} s): relisting with backoff, up to 30 s apart`);
}

function silentError(silentMs: number, rv: string): Error {
  return new Error(`the watch received nothing, not even a bookmark, for ${silentSeconds(silentMs)}, while the server had changes to send (a dead connection): resumed from resourceVersion ${rv}`);
}

/** Why a silent watch was closed, before the resumed one shows whether it was dead or quiet. */
function quietWords(silentMs: number, rv: string): string {
  return `nothing received, not even a bookmark, for ${silentSeconds(silentMs)}: resuming from resourceVersion ${rv}`;
}

function silentSeconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

export class Reflector<T extends KubeObject = KubeObject> {
  readonly stats: ReflectorStats = {
    lists: 0, listPages: 0, watches: 0, relists: 0, expired: 0, reconnects: 0,
    events: 0, bookmarks: 0, malformed: 0, errors: 0, backoffs: 0,
  };

  private readonly o: ReflectorOptions<T>;
  private readonly lw: ListerWatcher<T>;
  private readonly store: ReflectorStore<T>;
  private readonly clock: Clock;
  private readonly probes: ProbeBus;
  private readonly backoff: Backoff;
  private readonly relistPacing: RelistPacing;
  private readonly abort = new AbortController();
  /** The transform for a backend to apply as it decodes list items; a malformed item is left for wellFormed to report. */
  private readonly prepareItem: ((item: T) => T) | undefined;
  /** The transform's text form, for a backend to apply before it parses. */
  private readonly prepareText: TextTransform | undefined;
  private stopped = false;
  /** Inside stop(): the last probes (the watch closing) may still go out. */
  private stopping = false;
  private running = false;
  private lastSyncRV = '';
  /** The last RV can no longer be served (410): the next list must be a consistent read (''). */
  private lastRVUnavailable = false;
  /** A watch ended with 410: the next list is a relist for that cause. */
  private watchExpired = false;
  /**
   * The first list (at '0') came in pages: no watch cache serves this resource, so later lists are
   * paged too (client-go paginatedResult).
   */
  private paginatedResult = false;
  private listedOnce = false;
  private watchListUnsupported = false;
  /** Why the last list failed: its Retry-After, if any, lengthens the backoff. */
  private listFailure: unknown;
  private session: WatchSession<T> | undefined;
  /**
   * The last watch ended for silence. kube-apiserver sends no bookmark while nothing of the kind
   * changes anywhere (a bookmark carries the last event's version), so silence alone is a quiet
   * kind as often as a dead connection: it is said only once the resumed watch shows the latter.
   */
  private resumedAfterSilence: { silentMs: number; resourceVersion: string } | undefined;
  /**
   * Held so that the envelope's hidden class stays alive. Envelopes are garbage as soon as they are
   * handled; if none is alive at a full GC, V8 drops their class and deoptimizes every function
   * specialised on it, and the whole event path warms up again (measured: +30% CPU per event).
   */
  private lastEvent: WatchEvent<T> | undefined;
  private sleepTimer: TimerHandle | undefined;
  private wakeSleeper: (() => void) | undefined;
  private resyncTimer: TimerHandle | undefined;

  constructor(options: ReflectorOptions<T>) {
    this.o = options;
    this.lw = options.listerWatcher;
    this.store = options.store;
    this.clock = options.clock;
    this.probes = options.probes;
    this.backoff = new Backoff(options.clock, options.random);
    this.relistPacing = new RelistPacing(options.clock, options.random);
    const transform = options.transform;
    this.prepareItem = transform ? (item) => (malformation(item) === undefined ? transform(item) : item) : undefined;
    this.prepareText = textFormOf(transform);
  }

  /**
   * prepareItem for one page of a list: long values repeated across the list made one string
   * (see RepeatedValues), and what the page decoded so far counted for `listItems` probes while
   * anyone listens.
   */
  private listPrepare(repeated: RepeatedValues): (item: T) => T {
    const prepare = this.prepareItem;
    let decoded = 0;
    return (item) => {
      if (this.probes.active && ++decoded % LIST_ITEMS_PROBE_EVERY === 0) this.emit({ kind: 'listItems', items: decoded });
      return repeated.share(prepare ? prepare(item) : item);
    };
  }

  /** The resourceVersion the cache is known to be current with (list, event or bookmark). */
  lastSyncResourceVersion(): string {
    return this.lastSyncRV;
  }

  isStopped(): boolean {
    return this.stopped;
  }

  /** Starts the list/watch loop in the background. Calling it twice does nothing. */
  run(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    void this.loop().catch((err: unknown) => {
      // The loop handles its own failures; reaching here is a bug, and it must not stay silent.
      if (!this.stopped) this.reportError(asError(err));
    });
  }

  /** Immediate and final: aborts any in-flight list, ends the watch, cancels every timer. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.lastEvent = undefined;
    this.abort.abort();
    this.resyncTimer?.cancel();
    this.sleepTimer?.cancel();
    this.wakeSleeper?.();
    const s = this.session;
    this.stopping = true;
    if (s) this.endSession(s, { kind: 'stopped' });
    this.stopping = false;
  }

  private async loop(): Promise<void> {
    let needList = true;
    while (!this.stopped) {
      if (needList) {
        const streamed = this.o.useWatchList && !this.watchListUnsupported;
        const listsBefore = this.stats.lists;
        const end = streamed ? await this.watch(true) : undefined;
        if (this.stopped) return;
        if (end === undefined || end.kind === 'watchListFailed') {
          if (end) {
            this.watchListUnsupported = true;
            this.reportError(new Error(`streaming list unavailable, falling back to a plain list: ${end.error.message}`));
          }
          if (!(await this.list())) {
            if (this.stopped) return;
            await this.sleep(this.nextBackoff(this.listFailure));
            continue;
          }
        } else {
          // A stream that broke before its initial events were complete listed nothing: list again.
          const listed = this.stats.lists > listsBefore;
          needList = (await this.afterWatch(end)) || !listed;
          continue;
        }
      }
      const end = await this.watch(false);
      needList = await this.afterWatch(end);
    }
  }

  /** Decides what follows a finished watch: true → list again. Sleeps out any backoff first. */
  private async afterWatch(end: WatchEnd): Promise<boolean> {
    switch (end.kind) {
      case 'stopped':
        return false;
      case 'clean':
        return false;
      case 'expired':
      case 'behind':
        await this.paceRelist(end.kind);
        return true;
      case 'silent':
        return false;
      case 'error':
        await this.sleep(this.nextBackoff(end.error));
        return false;
      case 'refused':
        await this.sleep(this.nextBackoff(end.error));
        return true;
      case 'watchListFailed':
        return true;
    }
  }

  // ---- list ---------------------------------------------------------------------------------

  /** One full (paged) list handed to the store. False on failure (already reported). */
  private async list(): Promise<boolean> {
    if (this.listedOnce) {
      this.stats.relists++;
      if (this.probes.active) this.emit({ kind: 'relist', cause: this.lastRVUnavailable || this.watchExpired ? 'expired' : 'error' });
    }
    const startedAt = this.clock.now();
    // client-go relistResourceVersion: '0' (any, cache is fine) the first time, the last synced
    // version afterwards, and a consistent read ('') once that version is gone.
    let rv: string | undefined = this.lastRVUnavailable ? undefined : this.listedOnce ? this.lastSyncRV || undefined : '0';
    const pageSize = this.o.pageSize ?? 500;
    // A list at a version we saw is asked for whole, so that the watch cache serves it rather than
    // etcd page by page; '0' is served whole from the cache anyway (client-go). Cleared when a
    // continue token expires: the list is asked for again whole, which no compaction can cut short
    // (client-go's pager, FullListIfExpired).
    let paged = pageSize > 0 && (rv === undefined || rv === '0' || this.paginatedResult);
    const transform = this.o.transform;
    for (;;) {
      const limit = paged ? pageSize : 0;
      if (this.probes.active) this.emit({ kind: 'listStart', resourceVersion: rv });
      const pages: T[][] = [];
      const repeated = new RepeatedValues();
      let cont: string | undefined;
      let listRV = '';
      try {
        do {
          const page = await this.lw.list(
            cont
              ? { limit, continue: cont, labelSelector: this.o.labelSelector, fieldSelector: this.o.fieldSelector }
              : { resourceVersion: rv, limit: limit > 0 ? limit : undefined, labelSelector: this.o.labelSelector, fieldSelector: this.o.fieldSelector },
            this.abort.signal,
            this.listPrepare(repeated),
            this.prepareText,
          );
          if (this.stopped) return false;
          this.stats.listPages++;
          const pageItems = Array.isArray(page?.items) ? page.items : [];
          const kept = this.wellFormed(pageItems);
          // A backend that could not transform items as it decoded them: transform the page now.
          pages.push(transform && page?.[ITEMS_PREPARED] !== true ? kept.map(transform) : kept);
          cont = page?.metadata?.continue || undefined;
          listRV = page?.metadata?.resourceVersion ?? listRV;
          if (this.probes.active) this.emit({ kind: 'listPage', items: pageItems.length, continued: cont !== undefined });
        } while (cont);
      } catch (err) {
        if (this.stopped) return false;
        if (isExpired(err) && cont !== undefined && paged) {
          // The storage was compacted between two pages: paging again could be cut short again,
          // for as long as compactions come faster than a list's pages.
          this.stats.expired++;
          if (this.probes.active) this.emit({ kind: 'expired', via: 'http', resourceVersion: rv ?? '' });
          paged = false;
          continue;
        }
        if ((isExpired(err) || isTooLargeResourceVersion(err)) && rv !== undefined) {
          // A version the server no longer has, or one it never had (its history was lost): start
          // over with a consistent read (client-go: isLastSyncResourceVersionUnavailable).
          paged = pageSize > 0;
          if (isExpired(err)) {
            this.stats.expired++;
            if (this.probes.active) this.emit({ kind: 'expired', via: 'http', resourceVersion: rv ?? '' });
          } else {
            this.reportError(behindError(rv ?? '', err));
          }
          this.lastRVUnavailable = true;
          rv = undefined;
          continue;
        }
        this.listFailure = err;
        this.reportError(asError(err));
        return false;
      }
      if (this.stopped) return false;
      // One page (the usual answer from the watch cache) is handed on as it came: no copy.
      const items = pages.length === 1 ? pages[0]! : pages.flat();
      if (this.probes.active) this.emit({ kind: 'listEnd', resourceVersion: listRV, items: items.length, durationMs: this.clock.now() - startedAt });
      try {
        this.store.replace(items, listRV, transform !== undefined);
      } catch (err) {
        // A transform that throws: the list cannot be used; report it and try again later.
        this.reportError(asError(err));
        return false;
      }
      this.stats.lists++;
      if (rv === '0' && pages.length > 1) this.paginatedResult = true;
      this.listed(listRV);
      return true;
    }
  }

  /** The page's items the cache can hold; each one it cannot is reported. */
  private wellFormed(items: T[]): T[] {
    let i = 0;
    while (i < items.length && malformation(items[i]) === undefined) i++;
    if (i === items.length) return items;
    const kept = items.slice(0, i);
    for (; i < items.length; i++) {
      const bad = malformation(items[i]);
      if (bad) this.malformed(`list item: ${bad}`);
      else kept.push(items[i]!);
    }
    return kept;
  }

  private listed(rv: string): void {
    this.lastSyncRV = rv;
    this.lastRVUnavailable = false;
    this.watchExpired = false;
    if (!this.listedOnce) {
      this.listedOnce = true;
      this.startResync();
      this.o.onListed?.();
    }
  }

  private startResync(): void {
    const period = this.o.resyncPeriodMs ?? 0;
    if (period <= 0) return;
    const tick = (): void => {
      if (this.stopped) return;
      this.store.resync();
      this.resyncTimer = this.clock.setTimer(period, tick);
    };
    this.resyncTimer = this.clock.setTimer(period, tick);
  }

  // ---- watch --------------------------------------------------------------------------------

  /** Runs one watch stream to its end. `streaming`: a watch-list that first rebuilds the state. */
  private watch(streaming: boolean): Promise<WatchEnd> {
    const timeoutSeconds = Math.floor(MIN_WATCH_TIMEOUT_S * (1 + this.o.random()));
    return new Promise<WatchEnd>((resolve) => {
      const session: WatchSession<T> = {
        done: false, handle: undefined, events: 0, openedAt: this.clock.now(), connectedAt: undefined,
        initial: streaming ? new Map() : undefined, initialValues: streaming ? new RepeatedValues() : undefined,
        idleTimer: undefined, silenceTimer: undefined,
        abort: new AbortController(), resolve,
      };
      this.session = session;
      this.watchForSilence(session, timeoutSeconds);
      if (streaming) {
        if (this.listedOnce) {
          this.stats.relists++;
          if (this.probes.active) this.emit({ kind: 'relist', cause: 'watch-list' });
        }
        if (this.probes.active) this.emit({ kind: 'listStart', resourceVersion: undefined });
        this.armIdleTimer(session);
      }
      const rv = streaming ? '' : this.lastSyncRV;
      if (this.probes.active) this.emit({ kind: 'watchOpen', resourceVersion: rv, timeoutSeconds, streaming });
      const sink: WatchSink<T> = {
        event: (event) => this.onEvent(session, event),
        close: (error) => this.onClose(session, error),
      };
      this.lw
        .watch(
          streaming
            ? { resourceVersion: '', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true, allowWatchBookmarks: true, timeoutSeconds, labelSelector: this.o.labelSelector, fieldSelector: this.o.fieldSelector }
            : { resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds, labelSelector: this.o.labelSelector, fieldSelector: this.o.fieldSelector },
          sink,
          AbortSignal.any([this.abort.signal, session.abort.signal]),
          this.prepareText,
        )
        .then(
          (handle) => {
            if (session.done) {
              handle.stop();
              return;
            }
            session.handle = handle;
            session.connectedAt = this.clock.now();
            this.stats.watches++;
            if (this.stats.watches > 1) this.stats.reconnects++;
            this.o.onConnect?.();
          },
          (err: unknown) => {
            if (session.done) return;
            if (streaming) this.endSession(session, { kind: 'watchListFailed', error: asError(err) });
            else this.endSession(session, this.refusal(err, 'http'));
          },
        );
    });
  }

  private onEvent(session: WatchSession<T>, event: WatchEvent<T>): void {
    if (session.done || this.stopped) return;
    this.lastEvent = event;
    session.events++;
    const type = (event as { type?: unknown } | null)?.type;
    const obj = (event as { object?: unknown } | null)?.object;
    switch (type) {
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED': {
        const bad = malformation(obj);
        if (bad) {
          this.malformed(`${type} event: ${bad}`);
          return;
        }
        const o = obj as T;
        const rv = o.metadata.resourceVersion ?? '';
        this.stats.events++;
        if (this.resumedAfterSilence) this.judgeSilence(session);
        if (this.probes.active) this.emit({ kind: 'event', type, key: keyOfValid(o), resourceVersion: rv });
        if (session.initial) {
          this.armIdleTimer(session);
          if (type === 'DELETED') session.initial.delete(keyOfValid(o));
          else session.initial.set(keyOfValid(o), session.initialValues!.share(o));
          return;
        }
        try {
          if (type === 'ADDED') this.store.add(o);
          else if (type === 'MODIFIED') this.store.update(o);
          else this.store.delete(o);
        } catch (err) {
          // A transform that throws must not break the backend's stream reader that called us.
          this.reportError(asError(err));
          return;
        }
        if (rv) this.lastSyncRV = rv;
        return;
      }
      case 'BOOKMARK': {
        const rv = resourceVersionOf(obj);
        this.stats.bookmarks++;
        if (this.probes.active) this.emit({ kind: 'event', type, key: '', resourceVersion: rv ?? '' });
        if (!rv) {
          this.malformed('BOOKMARK event without metadata.resourceVersion');
          return;
        }
        if (session.initial) {
          const annotations = (obj as KubeObject).metadata.annotations;
          if (annotations?.[INITIAL_EVENTS_END_ANNOTATION] !== 'true') {
            this.armIdleTimer(session);
            return;
          }
          const items = [...session.initial.values()];
          session.initial = undefined;
          session.initialValues = undefined;
          session.idleTimer?.cancel();
          if (this.probes.active) this.emit({ kind: 'listEnd', resourceVersion: rv, items: items.length, durationMs: this.clock.now() - session.openedAt });
          try {
            this.store.replace(items, rv);
          } catch (err) {
            this.endSession(session, { kind: 'error', error: asError(err) });
            return;
          }
          this.stats.lists++;
          this.listed(rv);
          return;
        }
        this.lastSyncRV = rv;
        return;
      }
      case 'ERROR': {
        if (this.probes.active) this.emit({ kind: 'event', type, key: '', resourceVersion: '' });
        const error = isStatus(obj) ? ApiError.fromStatus(obj) : new ApiError(500, 'watch ERROR event without a Status');
        if (session.initial) this.endSession(session, { kind: 'watchListFailed', error });
        else this.endSession(session, this.refusal(error, 'event'));
        return;
      }
      default:
        this.malformed(`unknown watch event type ${JSON.stringify(type)}`);
    }
  }

  private onClose(session: WatchSession<T>, error: Error | undefined): void {
    if (session.done) return;
    if (session.initial) {
      this.endSession(session, { kind: 'watchListFailed', error: error ?? new Error('stream closed before the initial-events-end bookmark') });
    } else if (error) {
      this.endSession(session, { kind: 'error', error });
    } else if (session.events === 0 && this.clock.now() - session.openedAt < 1000) {
      // client-go's "very short watch": a server that closes at once would otherwise spin us.
      this.endSession(session, { kind: 'error', error: new Error('very short watch: closed within 1s without an event') });
    } else {
      this.endSession(session, { kind: 'clean' });
    }
  }

  /** How a watch the server refused (HTTP) or ended with an ERROR event ends. */
  private refusal(err: unknown, via: 'http' | 'event'): WatchEnd {
    if (isExpired(err)) return { kind: 'expired', via };
    if (isTooLargeResourceVersion(err)) return { kind: 'behind', error: behindError(this.lastSyncRV, err) };
    // client-go lists again after any status but 429 refusing a watch (403, 404, 5xx): with the
    // right to list but not to watch, the cache still follows the server, a list per backoff, and a
    // CRD deleted and made again is listed afresh. An ERROR event mid-stream is watched again.
    if (via === 'http' && err instanceof ApiError && err.code !== 429) return { kind: 'refused', error: err };
    return { kind: 'error', error: asError(err) };
  }

  /**
   * Ends a watch that delivers nothing for watchIdleTimeoutMs (client-go relies on the request's
   * timeout and the transport's; a half-open connection can otherwise hang until the server's
   * timeoutSeconds, up to 10 min). Checked a few times per period rather than re-armed per event,
   * so that the event path stays free of timer work.
   */
  private watchForSilence(session: WatchSession<T>, timeoutSeconds: number): void {
    const limitMs = this.o.watchIdleTimeoutMs;
    if (limitMs === undefined) return this.endAtTimeout(session, timeoutSeconds * 1000);
    if (!(limitMs > 0)) return;
    const stepMs = Math.max(1, Math.ceil(limitMs / 4));
    let seen = session.events;
    let quietSince = this.clock.now();
    const check = (): void => {
      if (session.done || this.stopped) return;
      const now = this.clock.now();
      if (session.events !== seen || session.initial) {
        // A streaming list's first phase has its own deadline (watchListIdleTimeoutMs).
        seen = session.events;
        quietSince = now;
      } else if (now - quietSince >= limitMs) {
        this.endSession(session, { kind: 'silent', silentMs: now - quietSince });
        return;
      }
      session.silenceTimer = this.clock.setTimer(stepMs, check);
    };
    session.silenceTimer = this.clock.setTimer(stepMs, check);
  }

  /**
   * client-go's request timeout: the watch ends at its timeoutSeconds even if the server keeps it
   * open (a half-open connection, a server that ignores it), and is resumed as after a clean end.
   * A streaming list still sending its initial events has its own deadline and is left to finish.
   */
  private endAtTimeout(session: WatchSession<T>, afterMs: number): void {
    session.silenceTimer = this.clock.setTimer(afterMs, () => {
      if (session.done || this.stopped) return;
      if (session.initial) return this.endAtTimeout(session, Math.max(1, Math.ceil(afterMs / 4)));
      this.endSession(session, { kind: 'clean' });
    });
  }

  /** The first change after a resume for silence: at once means the silent stream withheld it. */
  private judgeSilence(session: WatchSession<T>): void {
    const silence = this.resumedAfterSilence!;
    this.resumedAfterSilence = undefined;
    const since = session.connectedAt ?? session.openedAt;
    if (this.clock.now() - since <= WITHHELD_CHANGE_MS) this.reportError(silentError(silence.silentMs, silence.resourceVersion));
  }

  private armIdleTimer(session: WatchSession<T>): void {
    session.idleTimer?.cancel();
    const ms = this.o.watchListIdleTimeoutMs ?? 30_000;
    session.idleTimer = this.clock.setTimer(ms, () => {
      if (!session.done && session.initial) {
        this.endSession(session, { kind: 'watchListFailed', error: new Error(`no initial-events-end bookmark within ${ms} ms of silence`) });
      }
    });
  }

  /** Ends a stream exactly once: stops it, reports why, and wakes the loop. */
  private endSession(session: WatchSession<T>, end: WatchEnd): void {
    if (session.done) return;
    session.done = true;
    session.idleTimer?.cancel();
    session.silenceTimer?.cancel();
    if (session.handle) session.handle.stop();
    else if (end.kind !== 'stopped') session.abort.abort();
    if (this.session === session) this.session = undefined;
    if (end.kind === 'expired') {
      this.stats.expired++;
      // Not unavailable yet: a list at our version is served from the watch cache with anything as
      // new or newer; only a list the server answers 410 too falls back to a consistent read
      // (client-go).
      this.watchExpired = true;
      if (this.probes.active) this.emit({ kind: 'expired', via: end.via, resourceVersion: this.lastSyncRV });
    }
    if (end.kind === 'behind') this.lastRVUnavailable = true;
    if (end.kind === 'error' || end.kind === 'refused' || end.kind === 'behind') this.reportError(end.error);
    this.resumedAfterSilence = end.kind === 'silent' ? { silentMs: end.silentMs, resourceVersion: this.lastSyncRV } : undefined;
    const silence = end.kind === 'silent' ? quietWords(end.silentMs, this.lastSyncRV) : undefined;
    if (this.probes.active) {
      const reason = end.kind === 'watchListFailed' || end.kind === 'behind' || end.kind === 'silent' || end.kind === 'refused' ? 'error' : end.kind;
      const error = end.kind === 'error' || end.kind === 'refused' || end.kind === 'watchListFailed' || end.kind === 'behind' ? end.error.message : silence;
      this.emit({ kind: 'watchClose', reason, error, events: session.events });
    }
    session.resolve(end);
  }

  // ---- plumbing -----------------------------------------------------------------------------

  /** The next backoff delay, and never less than the Retry-After the failure carried. */
  private nextBackoff(failure?: unknown): number {
    const next = this.backoff.next();
    const delayMs = Math.max(next.delayMs, retryAfterMs(failure));
    const attempt = next.attempt;
    this.stats.backoffs++;
    if (this.probes.active) this.emit({ kind: 'backoff', delayMs, attempt });
    return delayMs;
  }

  /** Waits, when 410s come in a row, before the list that answers one; says so once per run of them. */
  private async paceRelist(why: 'expired' | 'behind'): Promise<void> {
    const pace = this.relistPacing.next();
    if (pace.warn) this.reportError(repeatedRelistWarning(why, pace));
    if (pace.delayMs === 0) return;
    this.stats.backoffs++;
    if (this.probes.active) this.emit({ kind: 'backoff', delayMs: pace.delayMs, attempt: pace.attempt });
    await this.sleep(pace.delayMs);
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        this.sleepTimer = undefined;
        this.wakeSleeper = undefined;
        resolve();
      };
      this.wakeSleeper = wake;
      this.sleepTimer = this.clock.setTimer(ms, wake);
    });
  }

  private malformed(message: string): void {
    this.stats.malformed++;
    this.reportError(new Error(`malformed data from the server: ${message}`));
  }

  private reportError(err: Error): void {
    this.stats.errors++;
    if (this.probes.active) this.emit({ kind: 'error', message: err.message, code: err instanceof ApiError ? err.code : undefined });
    this.o.onError?.(err);
  }

  private emit(probe: DistributiveOmit<Parameters<ProbeBus['emit']>[0], 'at' | 'informer'>): void {
    if (this.stopped && !this.stopping) return;
    this.probes.emit({ ...probe, at: this.clock.now(), informer: this.o.name } as Parameters<ProbeBus['emit']>[0]);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

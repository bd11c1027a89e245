import type { Clock, TimerHandle } from '../../shared/clock.ts';
import type { KubeObject } from '../../shared/k8s.ts';
import { tooOldResourceVersion } from '../../shared/apiErrors.ts';
import type { FieldSelector } from '../selectors/fieldSelector.ts';
import type { LabelSelector } from '../../shared/labelSelector.ts';
import type { DeliveryGate } from './deliveryGate.ts';
import { Deque } from './deque.ts';
import { HeldEvents } from './heldEvents.ts';
import type { HistoryEvent } from './history.ts';
import { Stored } from './storedObject.ts';
import { bookmarkEvent, errorEvent, storedEvent } from './watchEvent.ts';
import type { SimWatch, SimWatchEvent, WatchCloseReason, WatchListener } from './types.ts';

// One open watch: filters the resource's events through its namespace and selectors, queues them
// and delivers them in order, in microtask batches (or later, when a fault delays or withholds
// them). Like the cacher's cacheWatcher, an object that stops matching is sent as DELETED and one
// that starts matching as ADDED, so the client's view of "what matches" stays exact.
//
// A consumer that cannot keep up (its socket full, so the HTTP layer paused it) gets a bounded
// buffer: once SLOW_WATCHER_BUFFER events arrive during one pause, or MAX_PAUSED_BACKLOG wait in
// all, the watch is closed, as the cacher terminates a watcher whose channel stays full; the
// client resumes from its last RV. (A burst queued before the pause, e.g. thousands of in-process
// writes in one tick, does not count against the first bound: a reader that drains is not slow.)
//
// Faults reach a watcher through its gate (deliveryGate.ts): delay, withhold, or hold one object's
// events for a later one to replace (heldEvents.ts); and by being ended (dropped, expired).

/** What the client-insight registry learns about a watch. */
export interface WatchObserver {
  sent(event: SimWatchEvent): void;
  closed(reason: WatchCloseReason | 'stopped'): void;
}

export interface WatcherConfig {
  id: number;
  clock: Clock;
  gate: DeliveryGate;
  /** The watched resource, `plural` or `plural.group`, as faults name it. */
  resource: string;
  /** Who the watch's request ran as (faults may be aimed at one user); unset in process. */
  user?: string;
  listener: WatchListener;
  namespace: string;
  label: LabelSelector;
  field: FieldSelector;
  /** apiVersion and kind the client asked in (bookmarks carry them; objects are rewritten when it differs). */
  apiVersion: string;
  /** An event as reads serve its object (a custom resource with its CRD's defaults as they are now). */
  served?: (event: SimWatchEvent) => SimWatchEvent;
  kind: string;
  bookmarks: boolean;
  bookmarkIntervalMs: number;
  /** Ends the watch after this long; negative: at once, as kube-apiserver's timer that has already run out. */
  timeoutSeconds?: number;
  /** The global RV now (bookmarks carry it). */
  currentRv: () => number;
  detach: (w: Watcher) => void;
  observer?: WatchObserver;
}

/** An event held back by the delay fault until `readyAt`. */
class Delayed {
  readonly event: SimWatchEvent;
  readonly readyAt: number;
  constructor(event: SimWatchEvent, readyAt: number) {
    this.event = event;
    this.readyAt = readyAt;
  }
}

/** The end of the stream, queued behind what is still to be delivered. */
class CloseMarker {
  readonly reason: WatchCloseReason;
  constructor(reason: WatchCloseReason) {
    this.reason = reason;
  }
}

// Undelayed events are queued as themselves (one pointer each), so a watch replaying 50k events to
// 100 watchers costs 5M pointers, not 5M wrapper objects.
type Queued = SimWatchEvent | Delayed | CloseMarker;

/** Events delivered per turn; past this, delivery yields to I/O (setImmediate) before going on. */
const BATCH = 1000;

/**
 * Events all watchers together deliver between two I/O polls: two hundred watchers replaying the
 * initial state would otherwise run 200 × BATCH deliveries back to back, and health checks wait.
 */
const EVENTS_PER_TURN = 4 * BATCH;
let deliveredThisTurn = 0;
let turnResetScheduled = false;

function turnBudgetLeft(): boolean {
  if (!turnResetScheduled) {
    turnResetScheduled = true;
    setImmediate(() => {
      deliveredThisTurn = 0;
      turnResetScheduled = false;
    });
  }
  return deliveredThisTurn < EVENTS_PER_TURN;
}

/** Events that may arrive while a watcher is paused before it is closed as too slow (the cacher's channels hold 10 to 1000). */
export const SLOW_WATCHER_BUFFER = 1000;

/** Undelivered live events a paused watcher may hold in all. */
const MAX_PAUSED_BACKLOG = 10 * SLOW_WATCHER_BUFFER;

/** Before the deadline, one last bookmark (the cacher sends one shortly before a watch times out). */
const BOOKMARK_BEFORE_TIMEOUT_MS = 2000;

export class Watcher implements SimWatch {
  readonly id: number;
  private readonly queue = new Deque<Queued>();
  private scheduled = false;
  private flushTimer: TimerHandle | undefined;
  private readonly timers: TimerHandle[] = [];
  private ended = false;
  /** The lowest RV a bookmark may carry (a watch from a future RV must not go backwards). */
  private floorRv = 0;
  private readonly filtered: boolean;
  /** Events queued before `start` (the initial state or the replay of a resume) not yet delivered: not counted against the buffer, as the cacher sends them apart from its channel. */
  private initialLeft = 0;
  /** Events queued since the current pause began. */
  private arrivedWhilePaused = 0;
  /** Events held for coalescing, by object (made when the first is held). */
  private holds: HeldEvents | undefined;
  /** The resourceVersion of the last event or bookmark delivered. */
  private lastSentRv = '';
  /** Set when the watch is expired: what it still holds goes out at once, whatever the gate says. */
  private draining = false;
  private sentCount = 0;
  /** Queued events at the head that go out while events are withheld (a lagging cache's initial state). */
  private servedAnyway = 0;

  private readonly cfg: WatcherConfig;

  constructor(cfg: WatcherConfig) {
    this.cfg = cfg;
    this.id = cfg.id;
    this.filtered = !cfg.label.empty || !cfg.field.empty || cfg.namespace !== '';
  }

  get user(): string | undefined {
    return this.cfg.user;
  }

  /** The watched resource (`plural` or `plural.group`) and namespace ('' for all). */
  get scope(): { resource: string; namespace: string } {
    return { resource: this.cfg.resource, namespace: this.cfg.namespace };
  }

  /** Events queued or held for coalescing, not yet sent to the client (withheld and delayed ones too). */
  get undelivered(): number {
    return this.queue.length + (this.holds?.size ?? 0);
  }

  /** Events and bookmarks sent to the client so far. */
  get sent(): number {
    return this.sentCount;
  }

  /** Starts bookmark and timeout timers; call once the initial events are queued. */
  start(fromRv: number): void {
    this.floorRv = fromRv;
    this.lastSentRv = String(fromRv);
    this.initialLeft = this.queue.length;
    const { clock } = this.cfg;
    if (this.cfg.bookmarks && this.cfg.bookmarkIntervalMs > 0) this.scheduleBookmarks();
    const timeoutMs = (this.cfg.timeoutSeconds ?? 0) * 1000;
    if (timeoutMs < 0) this.timers.push(clock.setTimer(0, () => this.end('timeout')));
    if (timeoutMs > 0) {
      if (this.cfg.bookmarks && timeoutMs > BOOKMARK_BEFORE_TIMEOUT_MS) {
        this.timers.push(clock.setTimer(timeoutMs - BOOKMARK_BEFORE_TIMEOUT_MS, () => this.bookmark()));
      }
      this.timers.push(clock.setTimer(timeoutMs, () => this.end('timeout')));
    }
  }

  private scheduleBookmarks(): void {
    this.timers.push(this.cfg.clock.setTimer(this.cfg.bookmarkIntervalMs, () => {
      this.bookmark();
      if (!this.ended) this.scheduleBookmarks();
    }));
  }

  matches(obj: Readonly<KubeObject>): boolean {
    if (!this.filtered) return true;
    if (this.cfg.namespace !== '' && obj.metadata.namespace !== this.cfg.namespace) return false;
    return this.cfg.label.matches(obj.metadata.labels) && this.cfg.field.matches(obj);
  }

  /** Queues an event as this watcher sees it (after filtering). */
  offer(h: HistoryEvent): void {
    if (this.ended) return;
    if (!this.filtered) {
      this.push(storedEvent(h.type, h.object));
      return;
    }
    const now = h.type !== 'DELETED' && this.matches(h.object.object);
    const before = h.prev !== undefined && this.matches(h.prev.object);
    if (h.type === 'ADDED') {
      if (now) this.push(storedEvent('ADDED', h.object));
    } else if (h.type === 'DELETED') {
      if (before) this.push(storedEvent('DELETED', h.object));
    } else if (now && before) this.push(storedEvent('MODIFIED', h.object));
    else if (now) this.push(storedEvent('ADDED', h.object));
    else if (before && h.prev) this.push(storedEvent('DELETED', (h.leftSelector ??= h.prev.withResourceVersion(h.rv))));
  }

  /**
   * What is queued so far goes out even while the gate withholds events: a lagging watch cache
   * (the stale-view fault) serves a watch-list its initial state, old as it is, as it serves a list.
   */
  serveQueuedAnyway(): void {
    this.servedAnyway = this.queue.length;
    this.schedule();
  }

  /**
   * Queues a synthetic ADDED for an object of the initial state (already filtered by the caller).
   * It is never held for coalescing: it is the state a list would answer, not a change of the
   * object, and holding it would hide the object from an informer started after the rule was
   * armed (its cache synced without it) until the object's next change.
   */
  offerInitial(stored: Stored): void {
    this.push(storedEvent('ADDED', stored), true);
  }

  pushEvent(event: SimWatchEvent): void {
    this.push(event);
  }

  private push(event: SimWatchEvent, initial = false): void {
    const ofObject = event.type !== 'BOOKMARK' && event.type !== 'ERROR';
    if (ofObject && this.cfg.served) event = this.cfg.served(event);
    if (ofObject && this.cfg.apiVersion !== event.object.apiVersion) event = this.convert(event);
    if (ofObject && !initial && (this.holds?.size || this.cfg.gate.holding)) {
      const next = this.coalesced(event);
      if (!next) return;
      event = next;
    }
    this.enqueue(event);
  }

  /** The event to queue for this one when its object's events are being coalesced (undefined: held). */
  private coalesced(event: SimWatchEvent): SimWatchEvent | undefined {
    const meta = event.object.metadata;
    const key = meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : meta.name ?? '';
    this.holds ??= new HeldEvents(this.cfg.clock, (e) => {
      if (!this.ended) this.enqueue(e);
    });
    return this.holds.take(event, key, () => this.cfg.gate.holdFor(this.cfg.resource, key, meta.resourceVersion ?? ''));
  }

  private enqueue(event: SimWatchEvent): void {
    if (this.paused && (++this.arrivedWhilePaused > SLOW_WATCHER_BUFFER || this.queue.length - this.initialLeft >= MAX_PAUSED_BACKLOG)) {
      this.end('slow', true);
      return;
    }
    const delay = this.cfg.gate.eventDelayMs;
    this.queue.push(delay > 0 ? new Delayed(event, this.cfg.clock.now() + delay) : event);
    this.schedule();
  }

  private convert(event: SimWatchEvent): SimWatchEvent {
    const stored = new Stored({ ...structuredClone(event.object), apiVersion: this.cfg.apiVersion } as KubeObject, 0);
    return storedEvent(event.type as 'ADDED', stored);
  }

  /**
   * Queues a bookmark at the current RV, or at `atRv` (a stream of the initial state as of an older
   * one). None while bookmarks are withheld, nor while an event is held: its RV would pass the held
   * event's, and a client resuming from it would never see that event.
   */
  bookmark(initialEventsEnd = false, atRv?: number): void {
    if (this.ended || (!initialEventsEnd && (this.cfg.gate.bookmarksWithheld || this.holds?.size))) return;
    const rv = atRv ?? Math.max(this.cfg.currentRv(), this.floorRv);
    this.push(bookmarkEvent(this.cfg.apiVersion, this.cfg.kind, rv, initialEventsEnd));
  }

  /** Ends the stream after what is queued (timeout, expired) or at once, dropping the backlog. */
  end(reason: WatchCloseReason, dropBacklog = false): void {
    if (this.ended) return;
    this.ended = true;
    this.cancelTimers();
    if (dropBacklog) {
      this.queue.clear();
      this.holds?.clear();
      this.servedAnyway = 0;
    } else {
      for (const e of this.holds?.drain() ?? []) this.queue.push(e);
    }
    this.queue.push(new CloseMarker(reason));
    this.scheduled = false;
    this.flushTimer?.cancel();
    this.schedule();
  }

  /**
   * Ends the watch with the 410 Expired event a resume from a compacted resourceVersion gets (the
   * client relists). What it holds back goes out first, at once; with `discardWithheld` it is
   * dropped instead, so the client never sees those states, only the latest, in its relist.
   */
  expire(discardWithheld: boolean): void {
    if (this.ended) return;
    if (discardWithheld) {
      this.queue.clear();
      this.holds?.clear();
      this.servedAnyway = 0;
      this.initialLeft = 0;
    } else {
      for (const e of this.holds?.drain() ?? []) this.queue.push(e);
    }
    // As if the watch cache had started over past the client's resourceVersion.
    const asked = this.lastQueuedRv();
    const status = tooOldResourceVersion(asked, Math.max(this.cfg.currentRv(), asked + 1)).status;
    if (status) this.queue.push(errorEvent(status));
    this.draining = true;
    this.end('expired');
  }

  /** The resourceVersion the client will have read once it has read what is queued. */
  private lastQueuedRv(): number {
    const last = this.queue.last();
    const event = last instanceof Delayed ? last.event : last instanceof CloseMarker ? undefined : last;
    return Number(event?.object.metadata?.resourceVersion ?? this.lastSentRv) || this.floorRv;
  }

  /** Sends the events held for coalescing now (the fault that held them was lifted). */
  releaseHeld(): void {
    for (const e of this.holds?.drain() ?? []) this.enqueue(e);
  }

  /** Faults changed (released, delay lifted): look at the queue again. */
  wake(): void {
    if (this.scheduled) {
      this.flushTimer?.cancel();
      this.scheduled = false;
    }
    this.schedule();
  }

  /** Backpressure: no delivery until `resume` (events keep queueing, in order, up to SLOW_WATCHER_BUFFER). */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.arrivedWhilePaused = 0;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.wake();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.ended = true;
    this.cancelTimers();
    this.flushTimer?.cancel();
    this.queue.clear();
    this.holds?.clear();
    this.servedAnyway = 0;
    this.cfg.detach(this);
    this.cfg.observer?.closed('stopped');
  }

  private stopped = false;
  private paused = false;

  private cancelTimers(): void {
    for (const t of this.timers) t.cancel();
    this.timers.length = 0;
  }

  private schedule(yieldToIo = false): void {
    if (this.scheduled || this.stopped) return;
    const head = this.queue.peek();
    if (head === undefined) return;
    // A paused watch still learns that it ended: the close carries no data to hold back.
    if (this.paused && !(head instanceof CloseMarker)) return;
    let wait = 0;
    if (!(head instanceof CloseMarker) && !this.draining) {
      if (this.cfg.gate.eventsWithheld && this.servedAnyway === 0) return;
      if (head instanceof Delayed) wait = head.readyAt - this.cfg.clock.now();
    }
    this.scheduled = true;
    const run = (): void => {
      if (!this.scheduled) return;
      this.scheduled = false;
      this.flush();
    };
    if (wait > 0) this.flushTimer = this.cfg.clock.setTimer(wait, run);
    else if (yieldToIo) setImmediate(run);
    else queueMicrotask(run);
  }

  private flush(): void {
    const { listener, observer, gate, clock } = this.cfg;
    for (let delivered = 0; !this.stopped; ) {
      const head = this.queue.peek();
      if (head === undefined) break;
      if (this.paused && !(head instanceof CloseMarker)) break;
      if (head instanceof CloseMarker) {
        this.queue.shift();
        this.stopped = true;
        this.cfg.detach(this);
        observer?.closed(head.reason);
        listener.close(head.reason);
        return;
      }
      if (!this.draining) {
        if (gate.eventsWithheld && this.servedAnyway === 0) break;
        if (head instanceof Delayed && head.readyAt > clock.now()) break;
      }
      if (delivered >= BATCH || !turnBudgetLeft()) {
        this.schedule(true);
        return;
      }
      this.queue.shift();
      if (this.initialLeft > 0) this.initialLeft--;
      if (this.servedAnyway > 0) this.servedAnyway--;
      const event = head instanceof Delayed ? head.event : head;
      if (event.type !== 'ERROR') this.lastSentRv = event.object.metadata?.resourceVersion ?? this.lastSentRv;
      this.sentCount++;
      observer?.sent(event);
      listener.event(event);
      delivered++;
      deliveredThisTurn++;
    }
    this.schedule();
  }
}

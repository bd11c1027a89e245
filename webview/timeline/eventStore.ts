import type { TimelineEvent, TimelineEventType } from '../../src/shared/protocol/timeline.ts';
import { TIMELINE_EVENT_TYPES } from '../../src/shared/protocol/timeline.ts';
import { laneKeyOf } from '../../src/shared/protocol/timeline.ts';

// The webview's copy of the host's event ring, indexed for drawing: one lane per object (and one per
// informer for its own markers), each holding its events in time order, so a frame binary-searches
// only the visible lanes for the visible time window. Append-only with eviction from the front; the
// store mutates in place and bumps `version` (the reducer's state points at it).

export interface StoredEvent {
  readonly event: TimelineEvent;
  readonly lane: Lane;
}

export interface Lane {
  readonly key: string;
  readonly informer: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  /** The object's kind when the host knew it (`ConfigMap`). */
  readonly kind: string | undefined;
  /** Whose view of which cluster (see TimelineEvent.cluster). */
  readonly cluster: string;
  /** An informer's own lane (bookmarks, errors, relists, 410s) rather than an object's. */
  readonly isInformerLane: boolean;
  /** Time-ordered; entries before `head` are evicted. */
  events: TimelineEvent[];
  head: number;
  counts: Record<TimelineEventType, number>;
  /** Set by the filter pass: shown under the current filters. */
  visible: boolean;
}

function emptyCounts(): Record<TimelineEventType, number> {
  return Object.fromEntries(TIMELINE_EVENT_TYPES.map((t) => [t, 0])) as Record<TimelineEventType, number>;
}

/** Index of the first element whose key is ≥ `value` (array sorted by key). */
export function lowerBound<T>(items: readonly T[], value: number, key: (item: T) => number, from = 0): number {
  let lo = from;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(items[mid] as T) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const atOf = (e: TimelineEvent): number => e.at;
const storedAtOf = (e: StoredEvent): number => e.event.at;
const storedSeqOf = (e: StoredEvent): number => e.event.seq;

export class EventStore {
  /** Bumped on every change; derived views compare it. */
  version = 0;
  maxEvents: number;
  private all: StoredEvent[] = [];
  private head = 0;
  private readonly lanesByKey = new Map<string, Lane>();
  /** Lanes in order of first appearance (informer lanes first among equals is not needed). */
  private laneList: Lane[] = [];
  private readonly resourceSet = new Set<string>();
  private readonly namespaceSet = new Set<string>();
  private readonly clusterSet = new Set<string>();

  constructor(maxEvents = 100_000) {
    this.maxEvents = maxEvents;
  }

  get size(): number {
    return this.all.length - this.head;
  }

  get lanes(): readonly Lane[] {
    return this.laneList;
  }

  resources(): string[] {
    return [...this.resourceSet].sort();
  }

  namespaces(): string[] {
    return [...this.namespaceSet].sort();
  }

  /** Clusters seen (lane names carry theirs once there is more than one). */
  clusters(): string[] {
    return [...this.clusterSet].sort();
  }

  first(): TimelineEvent | undefined {
    return this.all[this.head]?.event;
  }

  last(): TimelineEvent | undefined {
    return this.all[this.all.length - 1]?.event;
  }

  clear(): void {
    this.all = [];
    this.head = 0;
    this.lanesByKey.clear();
    this.laneList = [];
    this.resourceSet.clear();
    this.namespaceSet.clear();
    this.clusterSet.clear();
    this.version++;
  }

  /** Appends events in seq order. Times never run backwards within the store (clamped). */
  append(events: readonly TimelineEvent[]): void {
    let lastAt = this.last()?.at ?? -Infinity;
    let lastSeq = this.last()?.seq ?? -Infinity;
    for (const original of events) {
      if (original.seq <= lastSeq) continue; // a duplicate delivery
      const event = original.at < lastAt ? { ...original, at: lastAt } : original;
      lastAt = event.at;
      lastSeq = event.seq;
      const lane = this.laneFor(event);
      lane.events.push(event);
      lane.counts[event.type]++;
      this.all.push({ event, lane });
      this.resourceSet.add(event.resource);
      if (event.namespace) this.namespaceSet.add(event.namespace);
      this.clusterSet.add(event.cluster ?? '');
    }
    if (this.size > this.maxEvents) {
      const overflow = this.all[this.all.length - this.maxEvents - 1];
      if (overflow) this.evictThrough(overflow.event.seq);
    }
    this.version++;
  }

  /** Drops every event with seq ≤ `seq`, and lanes left empty. */
  evictThrough(seq: number): void {
    if (seq < 0 || this.size === 0) return;
    const end = lowerBound(this.all, seq + 1, storedSeqOf, this.head);
    if (end === this.head) return;
    const touched = new Set<Lane>();
    for (let i = this.head; i < end; i++) {
      const stored = this.all[i] as StoredEvent;
      const lane = stored.lane;
      lane.counts[stored.event.type]--;
      lane.head++;
      touched.add(lane);
    }
    this.head = end;
    let emptied = false;
    for (const lane of touched) {
      if (lane.head >= lane.events.length) {
        this.lanesByKey.delete(lane.key);
        emptied = true;
      } else if (lane.head > 1024 && lane.head * 2 > lane.events.length) {
        lane.events = lane.events.slice(lane.head);
        lane.head = 0;
      }
    }
    if (emptied) this.laneList = this.laneList.filter((l) => this.lanesByKey.get(l.key) === l);
    if (this.head > 4096 && this.head * 2 > this.all.length) {
      this.all = this.all.slice(this.head);
      this.head = 0;
    }
    this.version++;
  }

  bySeq(seq: number): StoredEvent | undefined {
    const i = lowerBound(this.all, seq, storedSeqOf, this.head);
    const found = this.all[i];
    return found?.event.seq === seq ? found : undefined;
  }

  lane(key: string): Lane | undefined {
    return this.lanesByKey.get(key);
  }

  /** Events of the whole store with start ≤ at ≤ end, in order. */
  *between(start: number, end: number): Generator<StoredEvent> {
    for (let i = lowerBound(this.all, start, storedAtOf, this.head); i < this.all.length; i++) {
      const stored = this.all[i] as StoredEvent;
      if (stored.event.at > end) return;
      yield stored;
    }
  }

  /** Index range [from, to) of a lane's events with start ≤ at ≤ end. */
  laneRange(lane: Lane, start: number, end: number): [number, number] {
    const from = lowerBound(lane.events, start, atOf, lane.head);
    let to = lowerBound(lane.events, end, atOf, from);
    while (to < lane.events.length && (lane.events[to] as TimelineEvent).at <= end) to++;
    return [from, to];
  }

  private laneFor(event: TimelineEvent): Lane {
    const key = laneKeyOf(event);
    let lane = this.lanesByKey.get(key);
    if (!lane) {
      lane = {
        key,
        informer: event.informer,
        resource: event.resource,
        namespace: event.namespace,
        name: event.name,
        kind: event.kind,
        cluster: event.cluster ?? '',
        isInformerLane: event.name === '',
        events: [],
        head: 0,
        counts: emptyCounts(),
        visible: true,
      };
      this.lanesByKey.set(key, lane);
      this.laneList.push(lane);
    }
    return lane;
  }
}

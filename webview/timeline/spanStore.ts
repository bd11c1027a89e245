import type { ReconcileSpan, SpansParams } from '../../src/shared/protocol/reconcileSpans.ts';
import { findLinkedEvent, spanLaneKey, triggerTarget } from '../../src/shared/protocol/reconcileSpans.ts';
import type { TimelineEvent } from '../../src/shared/protocol/timeline.ts';
import type { EventStore } from './eventStore.ts';

// The webview's reconcile spans: one lane per controller key, each span a bar from
// start to end. Kept beside the event store (not in it): spans update in place (start, then end) and
// are few next to the events, so a Map and small arrays are enough. Pure: unit-tested in Node.

export interface SpanLane {
  key: string;
  controller: string;
  requestKey: string;
  /** Ordered by start time. */
  spans: ReconcileSpan[];
  lastActivity: number;
}

/** A trigger or write of the selected span, with the timeline event it names (when the store has it). */
export interface SpanLink {
  role: 'trigger' | 'write';
  label: string;
  resourceVersion: string;
  event: TimelineEvent | undefined;
  error?: string;
}

export const MAX_SPANS = 5000;

export class SpanStore {
  version = 0;
  private readonly byId = new Map<string, ReconcileSpan>();
  private readonly lanesByKey = new Map<string, SpanLane>();

  get size(): number {
    return this.byId.size;
  }

  get(id: string): ReconcileSpan | undefined {
    return this.byId.get(id);
  }

  /** Lanes, most recently active first. */
  lanes(): SpanLane[] {
    return [...this.lanesByKey.values()].sort((a, b) => b.lastActivity - a.lastActivity);
  }

  apply(params: SpansParams): void {
    if (params.reset) {
      this.byId.clear();
      this.lanesByKey.clear();
    }
    for (const span of params.spans) this.put(span);
    while (this.byId.size > MAX_SPANS) {
      const oldest = this.byId.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
    this.version++;
  }

  clear(): void {
    this.byId.clear();
    this.lanesByKey.clear();
    this.version++;
  }

  private put(span: ReconcileSpan): void {
    const key = spanLaneKey(span);
    let lane = this.lanesByKey.get(key);
    if (!lane) {
      lane = { key, controller: span.controller, requestKey: span.key, spans: [], lastActivity: 0 };
      this.lanesByKey.set(key, lane);
    }
    const previous = this.byId.get(span.id);
    this.byId.set(span.id, span);
    const index = previous ? lane.spans.indexOf(previous) : -1;
    if (index >= 0) lane.spans[index] = span;
    else {
      lane.spans.push(span);
      if (lane.spans.length > 1 && (lane.spans[lane.spans.length - 2] as ReconcileSpan).startedAt > span.startedAt) lane.spans.sort((a, b) => a.startedAt - b.startedAt);
    }
    lane.lastActivity = Math.max(lane.lastActivity, span.endedAt ?? span.startedAt);
  }

  private remove(id: string): void {
    const span = this.byId.get(id);
    if (!span) return;
    this.byId.delete(id);
    const lane = this.lanesByKey.get(spanLaneKey(span));
    if (!lane) return;
    lane.spans = lane.spans.filter((s) => s !== span);
    if (lane.spans.length === 0) this.lanesByKey.delete(lane.key);
  }

  /**
   * Keyboard stepping: left/right move along the selected span's lane, up/down to the span nearest
   * in time on the lane above or below (among the first `rows` lanes shown). No selection: the newest span.
   */
  step(currentId: string | undefined, direction: 'prev' | 'next' | 'up' | 'down', rows = Infinity): ReconcileSpan | undefined {
    const lanes = this.lanes().slice(0, rows);
    const current = currentId === undefined ? undefined : this.byId.get(currentId);
    const laneIndex = current ? lanes.findIndex((l) => l.key === spanLaneKey(current)) : -1;
    if (!current || laneIndex < 0) {
      const first = lanes[0];
      return first?.spans[first.spans.length - 1];
    }
    const lane = lanes[laneIndex] as SpanLane;
    if (direction === 'prev' || direction === 'next') {
      const i = lane.spans.indexOf(current) + (direction === 'next' ? 1 : -1);
      return lane.spans[Math.max(0, Math.min(lane.spans.length - 1, i))];
    }
    const other = lanes[laneIndex + (direction === 'down' ? 1 : -1)];
    if (!other || other.spans.length === 0) return current;
    let best = other.spans[0] as ReconcileSpan;
    for (const s of other.spans) if (Math.abs(s.startedAt - current.startedAt) < Math.abs(best.startedAt - current.startedAt)) best = s;
    return best;
  }

  /** The span of a lane at time `at` (± slack ms), the nearest one when several are close. */
  spanAt(lane: SpanLane, at: number, slack: number): ReconcileSpan | undefined {
    let best: ReconcileSpan | undefined;
    let bestDistance = Infinity;
    for (const s of lane.spans) {
      const end = s.endedAt ?? Math.max(s.startedAt, at);
      const distance = at < s.startedAt ? s.startedAt - at : at > end ? at - end : 0;
      if (distance <= slack && distance < bestDistance) {
        best = s;
        bestDistance = distance;
      }
    }
    return best;
  }
}

/** The events a span links to: its triggers (what caused it) and its writes (what it caused). */
export function spanLinks(span: ReconcileSpan, events: EventStore): SpanLink[] {
  const candidatesFor = (namespace: string, name: string): TimelineEvent[] => {
    const out: TimelineEvent[] = [];
    for (const lane of events.lanes) if (lane.name === name && lane.namespace === namespace) out.push(...lane.events.slice(lane.head));
    return out;
  };
  const links: SpanLink[] = [];
  for (const t of span.triggers) {
    const target = triggerTarget(t);
    links.push({
      role: 'trigger',
      label: `${t.type} ${t.kind} ${t.key} (${t.via})`,
      resourceVersion: t.resourceVersion,
      event: findLinkedEvent(target, candidatesFor(target.namespace, target.name)),
    });
  }
  for (const w of span.writes) {
    links.push({
      role: 'write',
      label: `${w.verb} ${w.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name}`,
      resourceVersion: w.resourceVersion ?? '',
      event: findLinkedEvent(w, candidatesFor(w.namespace, w.name)),
      error: w.error,
    });
  }
  return links;
}

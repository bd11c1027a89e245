import type { SpansParams } from '../../src/shared/protocol/reconcileSpans.ts';
import type { FocusTarget, TimelineEvent } from '../../src/shared/protocol/timeline.ts';
import type { Lane } from './eventStore.ts';
import { EventStore, lowerBound } from './eventStore.ts';
import type { TimelineFilters } from './filters.ts';
import { NO_FILTERS, laneMatches, sameFilters, shownEventCount } from './filters.ts';
import type { Viewport } from './viewport.ts';
import * as vp from './viewport.ts';
import { shownTimes } from './rate.ts';
import { SpanStore } from './spanStore.ts';

// The timeline's state and its reducer: every user gesture and host message becomes an action; the
// reducer returns the next state. The event store and the span store are shared and mutated in place
// (copying 100k events per batch would cost more than it teaches; their versions say when they
// changed); everything else is replaced, never mutated, so the renderer can compare references to
// decide what to redraw.

export interface TimelineView {
  /** Lanes shown under the filters, in order. */
  lanes: readonly Lane[];
  /** Events shown (lanes shown × types enabled). */
  count: number;
  storeVersion: number;
  filters: TimelineFilters;
  /** Times of the shown events, sorted (the rate plot bins them). */
  times: Float64Array;
}

export interface TimelineState {
  store: EventStore;
  filters: TimelineFilters;
  viewport: Viewport;
  follow: boolean;
  /** Index of the first lane row on screen. */
  laneScroll: number;
  /** How many lane rows fit (set by layout). */
  laneRows: number;
  selectedSeq: number | undefined;
  /** Reconciles of running controllers, drawn in the strip above the lanes. */
  spans: SpanStore;
  spansVersion: number;
  /** The selected reconcile span (only while no event is selected). */
  selectedSpan: string | undefined;
  now: number;
  view: TimelineView;
}

export type TimelineAction =
  | { type: 'reset'; events: TimelineEvent[]; maxEvents: number; now: number }
  | { type: 'append'; events: TimelineEvent[]; evictedThroughSeq: number; now: number }
  | { type: 'clear' }
  | { type: 'setFilter'; filters: Partial<TimelineFilters> }
  | { type: 'zoom'; factor: number; anchor?: number }
  | { type: 'pan'; deltaMs: number }
  | { type: 'fit' }
  | { type: 'scrollLanes'; delta: number }
  | { type: 'layout'; laneRows: number }
  | { type: 'setFollow'; follow: boolean }
  | { type: 'select'; seq: number | undefined }
  | { type: 'step'; direction: 'next' | 'prev' | 'up' | 'down' | 'first' | 'last' }
  | { type: 'focus'; target: FocusTarget }
  | { type: 'spans'; params: SpansParams }
  | { type: 'selectSpan'; id: string | undefined };

const DEFAULT_SPAN_MS = 60_000;

export function initialState(now = Date.now(), maxEvents = 100_000): TimelineState {
  const store = new EventStore(maxEvents);
  return {
    store,
    filters: NO_FILTERS,
    viewport: { start: now - DEFAULT_SPAN_MS, end: now },
    follow: true,
    laneScroll: 0,
    laneRows: 20,
    selectedSeq: undefined,
    spans: new SpanStore(),
    spansVersion: 0,
    selectedSpan: undefined,
    now,
    view: computeView(store, NO_FILTERS),
  };
}

export function computeView(store: EventStore, filters: TimelineFilters): TimelineView {
  const lanes: Lane[] = [];
  let count = 0;
  for (const lane of store.lanes) {
    lane.visible = laneMatches(lane, filters);
    if (lane.visible) {
      lanes.push(lane);
      count += shownEventCount(lane, filters);
    }
  }
  return { lanes, count, storeVersion: store.version, filters, times: shownTimes(store, filters) };
}

/** Recomputes the derived view when the store or the filters changed since it was computed. */
function refreshView(state: TimelineState): TimelineState {
  const { view, store, filters } = state;
  if (view.storeVersion === store.version && sameFilters(view.filters, filters)) return state;
  const next = { ...state, view: computeView(store, filters) };
  if (next.selectedSeq !== undefined && !isShown(next, next.selectedSeq)) next.selectedSeq = undefined;
  return clampScroll(next);
}

function clampScroll(state: TimelineState): TimelineState {
  const max = Math.max(0, state.view.lanes.length - state.laneRows);
  const laneScroll = Math.min(max, Math.max(0, Math.round(state.laneScroll)));
  return laneScroll === state.laneScroll ? state : { ...state, laneScroll };
}

function latestTime(state: TimelineState): number {
  return Math.max(state.now, state.store.last()?.at ?? -Infinity);
}

function followed(state: TimelineState): TimelineState {
  return state.follow ? { ...state, viewport: vp.followTo(state.viewport, latestTime(state)) } : state;
}

export function isShown(state: TimelineState, seq: number): boolean {
  const stored = state.store.bySeq(seq);
  return !!stored && stored.lane.visible && state.filters.types[stored.event.type];
}

export function selectedEvent(state: TimelineState): TimelineEvent | undefined {
  return state.selectedSeq === undefined ? undefined : state.store.bySeq(state.selectedSeq)?.event;
}

/** Puts the event on screen: its lane in the visible rows, its time in the window. */
function revealSeq(state: TimelineState, seq: number): TimelineState {
  const stored = state.store.bySeq(seq);
  if (!stored) return state;
  const row = state.view.lanes.indexOf(stored.lane);
  let laneScroll = state.laneScroll;
  if (row >= 0 && row < laneScroll) laneScroll = row;
  else if (row >= laneScroll + state.laneRows) laneScroll = row - state.laneRows + 1;
  const viewport = vp.reveal(state.viewport, stored.event.at);
  const movedAway = viewport !== state.viewport;
  return { ...state, laneScroll, viewport, follow: movedAway ? false : state.follow };
}

/** The shown event in `lane` nearest to time `at` (or undefined). */
function nearestInLane(state: TimelineState, lane: Lane, at: number): TimelineEvent | undefined {
  const types = state.filters.types;
  const i = lowerBound(lane.events, at, (e) => e.at, lane.head);
  let best: TimelineEvent | undefined;
  for (let j = i; j < lane.events.length; j++) {
    const e = lane.events[j] as TimelineEvent;
    if (types[e.type]) { best = e; break; }
  }
  for (let j = i - 1; j >= lane.head; j--) {
    const e = lane.events[j] as TimelineEvent;
    if (types[e.type]) {
      if (!best || at - e.at <= best.at - at) best = e;
      break;
    }
  }
  return best;
}

function stepWithinLane(state: TimelineState, lane: Lane, from: number, dir: 1 | -1): TimelineEvent | undefined {
  const types = state.filters.types;
  for (let j = from + dir; j >= lane.head && j < lane.events.length; j += dir) {
    const e = lane.events[j] as TimelineEvent;
    if (types[e.type]) return e;
  }
  return undefined;
}

function step(state: TimelineState, direction: 'next' | 'prev' | 'up' | 'down' | 'first' | 'last'): TimelineState {
  const lanes = state.view.lanes;
  if (lanes.length === 0) return state;
  const current = state.selectedSeq === undefined ? undefined : state.store.bySeq(state.selectedSeq);
  let target: TimelineEvent | undefined;
  if (!current) {
    // Nothing selected yet: start at the first visible lane, nearest the window's centre.
    const lane = lanes[Math.min(state.laneScroll, lanes.length - 1)] as Lane;
    target = nearestInLane(state, lane, (state.viewport.start + state.viewport.end) / 2);
  } else {
    const lane = current.lane;
    const index = lowerBound(lane.events, current.event.seq, (e) => e.seq, lane.head);
    switch (direction) {
      case 'next': target = stepWithinLane(state, lane, index, 1); break;
      case 'prev': target = stepWithinLane(state, lane, index, -1); break;
      case 'first': target = stepWithinLane(state, lane, lane.head - 1, 1); break;
      case 'last': target = stepWithinLane(state, lane, lane.events.length, -1); break;
      case 'up':
      case 'down': {
        const row = lanes.indexOf(lane);
        const nextRow = row + (direction === 'down' ? 1 : -1);
        const nextLane = lanes[nextRow];
        if (nextLane) target = nearestInLane(state, nextLane, current.event.at);
        break;
      }
    }
  }
  if (!target) return state;
  return revealSeq({ ...state, selectedSeq: target.seq }, target.seq);
}

function focus(state: TimelineState, target: FocusTarget): TimelineState {
  const filters: TimelineFilters = {
    ...state.filters,
    resource: target.resource ?? '',
    namespace: target.namespace ?? '',
    name: target.name ?? '',
  };
  let next = refreshView({ ...state, filters, laneScroll: 0 });
  // Select the newest event of the first lane that is exactly the target.
  const lane = next.view.lanes.find((l) => !target.name || l.name === target.name) ?? next.view.lanes[0];
  if (lane) {
    const last = stepWithinLane(next, lane, lane.events.length, -1);
    if (last) next = revealSeq({ ...next, selectedSeq: last.seq }, last.seq);
  }
  return next;
}

export function reduce(state: TimelineState, action: TimelineAction): TimelineState {
  switch (action.type) {
    case 'reset': {
      state.store.clear();
      state.store.maxEvents = action.maxEvents;
      state.store.append(action.events);
      const first = state.store.first();
      const last = state.store.last();
      const viewport = first && last && !state.follow ? vp.fit(first.at, last.at) : state.viewport;
      return followed(refreshView({ ...state, now: action.now, viewport, selectedSeq: undefined }));
    }
    case 'append': {
      state.store.evictThrough(action.evictedThroughSeq);
      state.store.append(action.events);
      return followed(refreshView({ ...state, now: Math.max(state.now, action.now) }));
    }
    case 'clear':
      state.store.clear();
      state.spans.clear();
      return refreshView({ ...state, selectedSeq: undefined, selectedSpan: undefined, spansVersion: state.spans.version, laneScroll: 0 });
    case 'setFilter':
      return refreshView({ ...state, filters: { ...state.filters, ...action.filters, types: { ...state.filters.types, ...action.filters.types } } });
    case 'zoom': {
      // Following keeps the right edge pinned; keyboard/button zoom keeps the selection in place.
      const selected = selectedEvent(state);
      const selectedOnScreen = selected && selected.at >= state.viewport.start && selected.at <= state.viewport.end ? selected.at : undefined;
      const anchor = state.follow ? state.viewport.end : (action.anchor ?? selectedOnScreen);
      return { ...state, viewport: vp.zoom(state.viewport, action.factor, anchor) };
    }
    case 'pan':
      return action.deltaMs === 0 ? state : { ...state, follow: false, viewport: vp.pan(state.viewport, action.deltaMs) };
    case 'fit': {
      const first = state.store.first();
      const last = state.store.last();
      if (!first || !last) return state;
      return { ...state, follow: false, viewport: vp.fit(first.at, last.at) };
    }
    case 'scrollLanes':
      return clampScroll({ ...state, laneScroll: state.laneScroll + action.delta });
    case 'layout':
      return clampScroll({ ...state, laneRows: Math.max(1, Math.floor(action.laneRows)) });
    case 'setFollow':
      return followed({ ...state, follow: action.follow });
    case 'select':
      if (action.seq === undefined) return { ...state, selectedSeq: undefined };
      return isShown(state, action.seq) ? revealSeq({ ...state, selectedSeq: action.seq, selectedSpan: undefined }, action.seq) : state;
    case 'spans': {
      state.spans.apply(action.params);
      const selectedSpan = state.selectedSpan !== undefined && state.spans.get(state.selectedSpan) ? state.selectedSpan : undefined;
      return { ...state, spansVersion: state.spans.version, selectedSpan };
    }
    case 'selectSpan':
      return { ...state, selectedSpan: action.id, selectedSeq: undefined };
    case 'step':
      return step(state, action.direction);
    case 'focus':
      return focus(state, action.target);
  }
}

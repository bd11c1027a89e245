import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ReconcileSpan } from '../../../src/shared/protocol/reconcileSpans.ts';
import type { TimelineEvent, TimelineEventType } from '../../../src/shared/protocol/timeline.ts';
import { initialState, reduce, selectedEvent } from '../../../webview/timeline/state.ts';
import type { TimelineState } from '../../../webview/timeline/state.ts';
import { allTypes } from '../../../webview/timeline/filters.ts';
import { rateBins } from '../../../webview/timeline/rate.ts';
import { laneLabel, laneLabelText } from '../../../webview/timeline/laneLabel.ts';

const T0 = 1_700_000_000_000;

function ev(seq: number, name: string, type: TimelineEventType = 'MODIFIED', at = T0 + seq * 10, namespace = 'default', resource = 'configmaps'): TimelineEvent {
  return { seq, at, informer: resource, resource, namespace, name, type, resourceVersion: String(1000 + seq) };
}

function loaded(events: TimelineEvent[], maxEvents = 100_000): TimelineState {
  return reduce(initialState(T0), { type: 'reset', events, maxEvents, now: T0 });
}

describe('timeline state', () => {
  it('puts each object in its own lane and informer markers in the informer lane', () => {
    const s = loaded([ev(1, 'a', 'ADDED'), ev(2, 'b', 'ADDED'), ev(3, 'a'), ev(4, '', 'RELIST')]);
    assert.deepEqual(s.view.lanes.map((l) => l.key), ['|configmaps|default/a', '|configmaps|default/b', 'informer:configmaps']);
    assert.equal(s.view.count, 4);
    assert.equal(s.view.lanes[0]?.events.length, 2);
  });

  it('evicts through the seq the host says and drops emptied lanes', () => {
    let s = loaded([ev(1, 'a'), ev(2, 'b'), ev(3, 'a')]);
    s = reduce(s, { type: 'append', events: [ev(4, 'c')], evictedThroughSeq: 2, now: T0 });
    assert.equal(s.store.size, 2);
    assert.deepEqual(s.view.lanes.map((l) => l.name), ['a', 'c']);
    assert.equal(s.store.bySeq(2), undefined);
    assert.equal(s.store.bySeq(3)?.event.name, 'a');
  });

  it('bounds itself to maxEvents even if the host does not evict', () => {
    const events = Array.from({ length: 50 }, (_, i) => ev(i + 1, `o${i % 5}`));
    const s = loaded(events, 20);
    assert.equal(s.store.size, 20);
    assert.equal(s.store.first()?.seq, 31);
    assert.equal(s.view.count, 20);
  });

  it('filters by resource, namespace, name substring and type, and counts what is shown', () => {
    let s = loaded([
      ev(1, 'web-1', 'ADDED'),
      ev(2, 'web-2', 'ADDED', undefined, 'prod'),
      ev(3, 'db', 'DELETED'),
      ev(4, 'api', 'ADDED', undefined, 'default', 'deployments.apps'),
      ev(5, '', 'EXPIRED'),
    ]);
    s = reduce(s, { type: 'setFilter', filters: { name: 'WEB' } });
    assert.deepEqual(s.view.lanes.map((l) => l.name), ['web-1', 'web-2']);
    s = reduce(s, { type: 'setFilter', filters: { namespace: 'prod' } });
    assert.deepEqual(s.view.lanes.map((l) => l.name), ['web-2']);
    s = reduce(s, { type: 'setFilter', filters: { name: '', namespace: '', resource: 'configmaps' } });
    assert.deepEqual(s.view.lanes.map((l) => l.name), ['web-1', 'web-2', 'db', '']);
    s = reduce(s, { type: 'setFilter', filters: { types: { ...allTypes(false), DELETED: true } } });
    assert.deepEqual(s.view.lanes.map((l) => l.name), ['db']);
    assert.equal(s.view.count, 1);
  });

  it('follows the newest event while following, and stops following on pan', () => {
    let s = loaded([ev(1, 'a')]);
    s = reduce(s, { type: 'append', events: [ev(2, 'a', 'MODIFIED', T0 + 120_000)], evictedThroughSeq: -1, now: T0 });
    assert.ok(s.viewport.end >= T0 + 120_000 && s.viewport.start < T0 + 120_000);
    s = reduce(s, { type: 'pan', deltaMs: -30_000 });
    assert.equal(s.follow, false);
    const before = s.viewport;
    s = reduce(s, { type: 'append', events: [ev(3, 'a', 'MODIFIED', T0 + 500_000)], evictedThroughSeq: -1, now: T0 });
    assert.deepEqual(s.viewport, before);
  });

  it('zooms about the anchor and never below the minimum span', () => {
    let s = reduce(loaded([ev(1, 'a')]), { type: 'setFollow', follow: false });
    const anchor = (s.viewport.start + s.viewport.end) / 2 + 10_000;
    const ratio = (anchor - s.viewport.start) / (s.viewport.end - s.viewport.start);
    s = reduce(s, { type: 'zoom', factor: 0.5, anchor });
    assert.ok(Math.abs((anchor - s.viewport.start) / (s.viewport.end - s.viewport.start) - ratio) < 1e-9);
    for (let i = 0; i < 100; i++) s = reduce(s, { type: 'zoom', factor: 0.1, anchor });
    assert.equal(s.viewport.end - s.viewport.start, 20);
  });

  it('zooms about the selected event when no anchor is given (keyboard and buttons)', () => {
    let s = reduce(loaded([ev(1, 'a', 'ADDED', T0 + 1000), ev(2, 'a', 'MODIFIED', T0 + 50_000)]), { type: 'fit' });
    s = reduce(s, { type: 'select', seq: 1 });
    const before = (T0 + 1000 - s.viewport.start) / (s.viewport.end - s.viewport.start);
    s = reduce(s, { type: 'zoom', factor: 0.25 });
    const after = (T0 + 1000 - s.viewport.start) / (s.viewport.end - s.viewport.start);
    assert.ok(Math.abs(after - before) < 1e-9, 'the selection stays where it was on screen');
  });

  it('moves the selection with the keyboard: along a lane and across lanes, skipping filtered types', () => {
    let s = loaded([ev(1, 'a', 'ADDED'), ev(2, 'b', 'ADDED'), ev(3, 'a', 'BOOKMARK'), ev(4, 'a'), ev(5, 'b')]);
    s = reduce(s, { type: 'setFilter', filters: { types: { ...allTypes(), BOOKMARK: false } } });
    s = reduce(s, { type: 'select', seq: 1 });
    s = reduce(s, { type: 'step', direction: 'next' });
    assert.equal(s.selectedSeq, 4, 'skips the hidden bookmark');
    s = reduce(s, { type: 'step', direction: 'next' });
    assert.equal(s.selectedSeq, 4, 'stays at the end of the lane');
    s = reduce(s, { type: 'step', direction: 'down' });
    assert.equal(s.selectedSeq, 5, 'the nearest event in time on the next lane');
    s = reduce(s, { type: 'step', direction: 'first' });
    assert.equal(selectedEvent(s)?.seq, 2);
  });

  it('refuses to select an event the filters hide and drops a selection they come to hide', () => {
    let s = loaded([ev(1, 'a', 'ADDED'), ev(2, 'b', 'DELETED')]);
    s = reduce(s, { type: 'setFilter', filters: { types: { ...allTypes(), DELETED: false } } });
    assert.equal(reduce(s, { type: 'select', seq: 2 }).selectedSeq, undefined);
    s = reduce(s, { type: 'select', seq: 1 });
    assert.equal(s.selectedSeq, 1);
    s = reduce(s, { type: 'setFilter', filters: { name: 'b' } });
    assert.equal(s.selectedSeq, undefined);
  });

  it('scrolls lanes into view when the selection moves below the visible rows', () => {
    const events = Array.from({ length: 30 }, (_, i) => ev(i + 1, `o${String(i).padStart(2, '0')}`));
    let s = reduce(loaded(events), { type: 'layout', laneRows: 10 });
    s = reduce(s, { type: 'select', seq: 1 });
    for (let i = 0; i < 15; i++) s = reduce(s, { type: 'step', direction: 'down' });
    assert.equal(selectedEvent(s)?.name, 'o15');
    assert.equal(s.laneScroll, 6);
    s = reduce(s, { type: 'scrollLanes', delta: 1000 });
    assert.equal(s.laneScroll, 20);
  });

  it('focuses an object: filters to it and selects its newest event', () => {
    let s = loaded([ev(1, 'web', 'ADDED'), ev(2, 'web-2', 'ADDED'), ev(3, 'web')]);
    s = reduce(s, { type: 'focus', target: { resource: 'configmaps', namespace: 'default', name: 'web' } });
    assert.equal(s.selectedSeq, 3);
    assert.equal(s.filters.name, 'web');
  });

  it('clamps times that run backwards so lanes stay sorted', () => {
    const s = loaded([ev(1, 'a', 'ADDED', T0 + 100), ev(2, 'a', 'MODIFIED', T0 + 50)]);
    assert.equal(s.store.bySeq(2)?.event.at, T0 + 100);
  });

  it('plots events per second for shown events in the window', () => {
    const events = Array.from({ length: 100 }, (_, i) => ev(i + 1, i % 2 ? 'a' : 'b', 'MODIFIED', T0 + i * 10));
    let s = reduce(loaded(events), { type: 'setFollow', follow: false });
    const window = { start: T0, end: T0 + 1000 };
    assert.equal(rateBins(s.view.times, window, 10).max, 100);
    s = reduce(s, { type: 'setFilter', filters: { name: 'a' } });
    const bins = rateBins(s.view.times, window, 10);
    assert.equal(bins.max, 50);
    assert.equal(bins.rates.length, 10);
  });

  it('handles 100,000 events: load, filter and step stay fast', () => {
    const events = Array.from({ length: 100_000 }, (_, i) => ev(i + 1, `obj-${i % 2000}`, i % 7 === 0 ? 'ADDED' : 'MODIFIED', T0 + i));
    const t0 = performance.now();
    let s = loaded(events);
    s = reduce(s, { type: 'setFilter', filters: { name: 'obj-19' } });
    s = reduce(s, { type: 'append', events: [ev(100_001, 'obj-19')], evictedThroughSeq: 1000, now: T0 });
    const ms = performance.now() - t0;
    assert.equal(s.view.lanes.length, 111);
    assert.ok(ms < 2000, `took ${ms.toFixed(0)} ms`);
  });
});

describe('reconcile spans in the timeline state', () => {
  const span = (id: string, key: string, startedAt = T0): ReconcileSpan => ({
    id, seq: 1, controller: 'web', kind: 'ConfigMap', key, startedAt, outcome: 'running', detail: '', triggers: [], writes: [],
  });

  it('keeps spans in the state: a selected span survives updates and goes with a reset that drops it', () => {
    let s = reduce(initialState(T0), { type: 'spans', params: { spans: [span('r1', 'default/a'), span('r2', 'default/b')] } });
    assert.equal(s.spans.size, 2);
    const version = s.spansVersion;
    s = reduce(s, { type: 'selectSpan', id: 'r1' });
    assert.equal(s.selectedSpan, 'r1');
    s = reduce(s, { type: 'spans', params: { spans: [{ ...span('r1', 'default/a'), endedAt: T0 + 5, outcome: 'success' }] } });
    assert.ok(s.spansVersion > version);
    assert.equal(s.selectedSpan, 'r1');
    assert.equal(s.spans.get('r1')?.outcome, 'success');
    s = reduce(s, { type: 'spans', params: { spans: [span('r3', 'default/c')], reset: true } });
    assert.equal(s.selectedSpan, undefined);
    assert.deepEqual(s.spans.lanes().map((l) => l.requestKey), ['default/c']);
  });

  it('selecting an event unselects the span, and clearing drops spans and events alike', () => {
    let s = loaded([ev(1, 'a', 'ADDED')]);
    s = reduce(s, { type: 'spans', params: { spans: [span('r1', 'default/a')] } });
    s = reduce(s, { type: 'selectSpan', id: 'r1' });
    s = reduce(s, { type: 'select', seq: 1 });
    assert.equal(s.selectedSeq, 1);
    assert.equal(s.selectedSpan, undefined);
    s = reduce(s, { type: 'clear' });
    assert.equal(s.spans.size, 0);
    assert.equal(s.store.size, 0);
  });
});

describe('timeline lanes say what they are', () => {
  const at = (seq: number, partial: Partial<TimelineEvent>): TimelineEvent => ({ ...ev(seq, 'web'), ...partial });

  it('names a lane by kind and namespace/name, and adds the cluster only when several show', () => {
    let s = loaded([at(1, { kind: 'ConfigMap', cluster: 'Simulated cluster', informer: 'sim/configmaps' }), at(2, { name: '', type: 'BOOKMARK', cluster: 'Simulated cluster', informer: 'sim/configmaps' })]);
    assert.deepEqual(s.view.lanes.map((l) => laneLabelText(laneLabel(l, s.store.clusters().length > 1))), ['ConfigMap default/web', '⟳ configmaps']);
    s = reduce(s, { type: 'append', events: [at(3, { kind: 'ConfigMap', cluster: 'replicaset-controller cache', informer: 'controller:rs/configmaps' })], evictedThroughSeq: -1, now: T0 });
    assert.deepEqual(
      s.view.lanes.map((l) => laneLabelText(laneLabel(l, s.store.clusters().length > 1))),
      ['ConfigMap default/web · Simulated cluster', '⟳ configmaps · Simulated cluster', 'ConfigMap default/web · replicaset-controller cache'],
      'the same object seen by the view and by a debug session’s cluster: two lanes, each saying whose',
    );
  });

  it('falls back to the resource when the kind is unknown', () => {
    const s = loaded([ev(1, 'a')]);
    assert.equal(laneLabelText(laneLabel(s.view.lanes[0]!, false)), 'configmaps default/a');
  });

  it('leaves bookmarks and other informer markers out of the events/s plot', () => {
    const bookmarks = Array.from({ length: 40 }, (_, i) => ev(i + 1, '', 'BOOKMARK', T0 + i * 25));
    const s = loaded([...bookmarks, ev(41, 'a', 'MODIFIED', T0 + 1000), ev(42, '', 'RELIST', T0 + 1000)]);
    assert.equal(s.view.count, 42, 'the markers are still shown and counted in their lanes');
    assert.deepEqual([...s.view.times], [T0 + 1000], 'only the object change is a rate sample');
  });

  it('leaves a controller\'s miss, drawn over the event it concerns, out of the events/s plot', () => {
    const s = loaded([ev(1, 'a', 'MODIFIED', T0 + 1000), ev(2, 'a', 'MISSED', T0 + 1000)]);
    assert.equal(s.view.count, 2, 'the miss is shown on the object\'s lane');
    assert.deepEqual([...s.view.times], [T0 + 1000], 'one change, one rate sample');
  });
});

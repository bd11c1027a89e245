import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TimelineEvent, TimelineEventType } from '../../../src/shared/protocol/timeline.ts';
import { MARKER_SLOT, MAX_NUDGE, markerAt, placeMarkers } from '../../../webview/timeline/markerLayout.ts';

// Where the markers of one lane are drawn: events closer than a marker's width stay visible side
// by side in time order, a dense stretch does not drift far from its time, and a miss rings the
// event it concerns wherever that went.

const ev = (seq: number, at: number, type: TimelineEventType, rv = String(seq)): TimelineEvent => ({ seq, at, informer: 'configmaps', resource: 'configmaps', namespace: 'default', name: 'web', type, resourceVersion: rv });
const all = () => true;
const px = (at: number) => at; // one ms per pixel

test('a create and a patch 2 px apart are both drawn, the create first and clear of the patch', () => {
  const events = [ev(1, 100, 'ADDED'), ev(2, 102, 'MODIFIED')];
  const placed = placeMarkers(events, 0, 2, all, px);
  assert.deepEqual(placed.map((p) => [p.event.type, p.x]), [['ADDED', 100], ['MODIFIED', 100 + MARKER_SLOT]]);
  assert.equal(markerAt(placed, 100, 6)?.type, 'ADDED');
  assert.equal(markerAt(placed, 100 + MARKER_SLOT, 6)?.type, 'MODIFIED');
});

test('a dense stretch keeps one marker per slot, the latest in the last one, never far from its time', () => {
  const events = Array.from({ length: 50 }, (_, i) => ev(i + 1, 100 + i * 0.1, i === 0 ? 'ADDED' : 'MODIFIED'));
  const placed = placeMarkers(events, 0, events.length, all, (at) => Math.round(at));
  assert.equal(placed[0]?.event.type, 'ADDED', 'the first event stays visible');
  assert.equal(placed.at(-1)?.event.seq, 50, 'the latest shows');
  for (const p of placed) assert.ok(p.x - Math.round(p.event.at) <= MAX_NUDGE, `seq ${p.event.seq} drawn ${p.x - p.event.at} px from its time`);
  for (let i = 1; i < placed.length; i++) assert.ok((placed[i]?.x ?? 0) - (placed[i - 1]?.x ?? 0) >= MARKER_SLOT, 'markers do not touch');
});

test('events far apart stay at their own time; hidden types take no slot', () => {
  const events = [ev(1, 100, 'ADDED'), ev(2, 101, 'BOOKMARK'), ev(3, 300, 'MODIFIED')];
  const placed = placeMarkers(events, 0, 3, (e) => e.type !== 'BOOKMARK', px);
  assert.deepEqual(placed.map((p) => [p.event.seq, p.x]), [[1, 100], [3, 300]]);
});

test("a miss rings the event of its resourceVersion where that marker went, and wins the pointer's tie", () => {
  const events = [ev(1, 100, 'ADDED', '7'), ev(2, 101, 'MODIFIED', '8'), ev(3, 101, 'MISSED', '8')];
  const placed = placeMarkers(events, 0, 3, all, px);
  assert.deepEqual(placed.map((p) => [p.event.type, p.x]), [['ADDED', 100], ['MODIFIED', 100 + MARKER_SLOT], ['MISSED', 100 + MARKER_SLOT]]);
  assert.equal(markerAt(placed, 100 + MARKER_SLOT, 6)?.type, 'MISSED');
});

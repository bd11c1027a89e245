import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ReconcileSpan } from '../../../src/shared/protocol/reconcileSpans.ts';
import type { TimelineEvent } from '../../../src/shared/protocol/timeline.ts';
import { EventStore } from '../../../webview/timeline/eventStore.ts';
import { MAX_SPANS, SpanStore, spanLinks } from '../../../webview/timeline/spanStore.ts';

// The webview's side of reconcile spans: lanes per controller key, updates in place, links to events.

function span(id: string, key: string, startedAt: number, partial: Partial<ReconcileSpan> = {}): ReconcileSpan {
  return { id, seq: 1, controller: 'rs', kind: 'ReplicaSet', key, startedAt, outcome: 'running', detail: '', triggers: [], writes: [], ...partial };
}

const ev = (seq: number, name: string, rv: string, type: TimelineEvent['type'] = 'MODIFIED'): TimelineEvent => ({
  seq, at: seq * 10, informer: 'pods', resource: 'pods', namespace: 'default', name, type, resourceVersion: rv,
});

describe('reconcile spans in the webview (span store)', () => {
  it('keeps one lane per controller key, most recently active first, and updates a span in place when it ends', () => {
    const store = new SpanStore();
    store.apply({ spans: [span('a', 'default/web', 100), span('b', 'default/db', 200)] });
    assert.deepEqual(store.lanes().map((l) => l.requestKey), ['default/db', 'default/web']);
    store.apply({ spans: [span('a', 'default/web', 100, { endedAt: 300, outcome: 'success' })] });
    assert.deepEqual(store.lanes().map((l) => l.requestKey), ['default/web', 'default/db']);
    const web = store.lanes()[0]!;
    assert.equal(web.spans.length, 1);
    assert.equal(web.spans[0]!.outcome, 'success');
    assert.equal(store.spanAt(web, 250, 0)?.id, 'a');
    assert.equal(store.spanAt(web, 350, 10), undefined);
    assert.equal(store.spanAt(web, 305, 10)?.id, 'a');
    store.apply({ spans: [span('c', 'x', 1)], reset: true });
    assert.equal(store.size, 1);
    assert.deepEqual(store.lanes().map((l) => l.requestKey), ['x']);
  });

  it('steps through spans with the keyboard: along a lane, and to the nearest span on the next lane', () => {
    const store = new SpanStore();
    store.apply({ spans: [span('w1', 'default/web', 100, { endedAt: 110 }), span('w2', 'default/web', 300, { endedAt: 310 }), span('a1', 'default/api', 120, { endedAt: 400 })] });
    assert.deepEqual(store.lanes().map((l) => l.requestKey), ['default/api', 'default/web']);
    assert.equal(store.step(undefined, 'next')?.id, 'a1', 'nothing selected: the newest span of the top lane');
    assert.equal(store.step('a1', 'down')?.id, 'w1', 'nearest start time on the lane below');
    assert.equal(store.step('w1', 'next')?.id, 'w2');
    assert.equal(store.step('w2', 'next')?.id, 'w2', 'stays at the end');
    assert.equal(store.step('w2', 'up')?.id, 'a1');
    assert.equal(store.step('a1', 'up')?.id, 'a1');
  });

  it('stays bounded, dropping the oldest spans and their empty lanes', () => {
    const store = new SpanStore();
    store.apply({ spans: [span('old', 'default/old', 1)] });
    store.apply({ spans: Array.from({ length: MAX_SPANS }, (_, i) => span(`s${i}`, 'default/web', 10 + i)) });
    assert.equal(store.size, MAX_SPANS);
    assert.equal(store.get('old'), undefined);
    assert.deepEqual(store.lanes().map((l) => l.requestKey), ['default/web']);
  });

  it('links the selected span to the events that triggered it and the events its writes caused', () => {
    const events = new EventStore();
    events.append([ev(1, 'web', '10', 'ADDED'), ev(2, 'web-x1', '11', 'ADDED'), ev(3, 'web', '12')]);
    const s = span('a', 'default/web', 100, {
      triggers: [{ type: 'ADDED', kind: 'ReplicaSet', key: 'default/web', resourceVersion: '10', via: 'for', at: 5 }],
      writes: [
        { verb: 'create', kind: 'Pod', namespace: 'default', name: 'web-x1', resourceVersion: '11', at: 15 },
        { verb: 'create', kind: 'Pod', namespace: 'default', name: 'web-x2', resourceVersion: '13', at: 16 },
        { verb: 'updateStatus', kind: 'ReplicaSet', namespace: 'default', name: 'web', error: '409 Conflict', at: 17 },
      ],
    });
    const links = spanLinks(s, events);
    assert.deepEqual(
      links.map((l) => `${l.role} ${l.label} → ${l.event?.seq ?? '-'}`),
      ['trigger ADDED ReplicaSet default/web (for) → 1', 'write create Pod default/web-x1 → 2', 'write create Pod default/web-x2 → -', 'write updateStatus ReplicaSet default/web → -'],
    );
    assert.equal(links[3]!.error, '409 Conflict');
  });
});

// The timeline's one feed: events and reconcile spans, bounded, with the updates a panel follows.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ReconcileSpan } from '../../../src/shared/protocol/reconcileSpans.ts';
import { MAX_SPANS, TimelineFeed } from '../../../src/vscode/model/timelineFeed.ts';

function span(id: string, outcome: ReconcileSpan['outcome'] = 'running'): ReconcileSpan {
  return { id, seq: 1, controller: 'web', kind: 'ConfigMap', key: 'default/web', startedAt: 1, outcome, detail: '', triggers: [], writes: [] };
}

describe('TimelineFeed', () => {
  it('tells subscribers of each span and replaces a reconcile start by its end, keeping order', () => {
    const feed = new TimelineFeed(10);
    const seen: string[] = [];
    const stop = feed.onDidPutSpans((spans) => seen.push(...spans.map((s) => `${s.id} ${s.outcome}`)));
    feed.putSpan(span('a'));
    feed.putSpan(span('b'));
    feed.putSpan(span('a', 'success'));
    stop();
    feed.putSpan(span('c'));
    assert.deepEqual(seen, ['a running', 'b running', 'a success']);
    assert.deepEqual(feed.spans().map((s) => `${s.id} ${s.outcome}`), ['b running', 'a success', 'c running']);
  });

  it('keeps the newest spans only, and Clear forgets events and spans alike', () => {
    const feed = new TimelineFeed(10);
    for (let i = 0; i <= MAX_SPANS; i++) feed.putSpan(span(`s${i}`));
    assert.equal(feed.spans().length, MAX_SPANS);
    assert.equal(feed.spans()[0]?.id, 's1');
    let pushes = 0;
    feed.onDidPushEvent(() => pushes++);
    feed.events.push({ at: 1, informer: 'configmaps', resource: 'configmaps', namespace: 'default', name: 'a', type: 'ADDED', resourceVersion: '1' });
    assert.equal(pushes, 1);
    feed.clear();
    assert.equal(feed.spans().length, 0);
    assert.equal(feed.events.all().length, 0);
  });
});

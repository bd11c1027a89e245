import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { EventRing } from '../../../src/vscode/model/eventRing.ts';
import type { NewTimelineEvent } from '../../../src/vscode/model/eventRing.ts';

describe('timeline event ring', () => {
  const ev = (at: number, name = 'a'): NewTimelineEvent => ({ at, informer: 'i', resource: 'configmaps', namespace: 'default', name, type: 'MODIFIED', resourceVersion: '1' });

  it('numbers events, keeps the newest, and says what it evicted', () => {
    const ring = new EventRing(3);
    for (let i = 0; i < 5; i++) ring.push(ev(100 + i));
    assert.deepEqual(ring.all().map((e) => e.seq), [3, 4, 5]);
    assert.equal(ring.evictedThroughSeq, 2);
    assert.deepEqual(ring.since(3).map((e) => e.seq), [4, 5]);
    assert.deepEqual(ring.since(0).map((e) => e.seq), [3, 4, 5]);
    assert.equal(ring.get(2), undefined);
    assert.equal(ring.get(4)?.at, 103);
  });

  it('never lets time run backwards', () => {
    const ring = new EventRing(10);
    ring.push(ev(200));
    assert.equal(ring.push(ev(150)).at, 200);
  });

  it('resizes keeping the newest', () => {
    const ring = new EventRing(10);
    for (let i = 0; i < 10; i++) ring.push(ev(i));
    ring.resize(4);
    assert.deepEqual(ring.all().map((e) => e.seq), [7, 8, 9, 10]);
    ring.push(ev(20));
    assert.deepEqual(ring.all().map((e) => e.seq), [8, 9, 10, 11]);
  });
});

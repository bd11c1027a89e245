import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDelayingQueue } from '../../../src/workqueue/delayingQueue.ts';
import { FakeClock } from '../../../src/shared/clock.ts';

describe('delaying queue', () => {
  it('addAfter adds the item once the delay has passed', () => {
    const clock = new FakeClock();
    const q = createDelayingQueue<string>({ clock });
    q.addAfter('a', 100);
    clock.step(99);
    assert.equal(q.len(), 0);
    clock.step(1);
    assert.equal(q.len(), 1);
  });

  it('a zero or negative delay adds at once', () => {
    const q = createDelayingQueue<string>({ clock: new FakeClock() });
    q.addAfter('a', 0);
    q.addAfter('b', -5);
    assert.equal(q.len(), 2);
  });

  it('an item waiting twice keeps the earlier ready time', () => {
    const clock = new FakeClock();
    const q = createDelayingQueue<string>({ clock });
    q.addAfter('a', 100);
    q.addAfter('a', 500);
    clock.step(100);
    assert.equal(q.len(), 1);
    const clock2 = new FakeClock();
    const q2 = createDelayingQueue<string>({ clock: clock2 });
    q2.addAfter('a', 500);
    q2.addAfter('a', 100);
    clock2.step(100);
    assert.equal(q2.len(), 1);
    clock2.step(1000);
    assert.equal(q2.len(), 1, 'the cancelled later timer adds nothing');
  });

  it('shows waiting items with their ready time, and counts them in metrics', () => {
    const clock = new FakeClock(0);
    const q = createDelayingQueue<string>({ clock });
    q.addAfter('a', 250);
    assert.deepEqual(q.snapshot(), [{ item: 'a', state: 'waiting', since: 0, until: 250, reason: 'addAfter', retries: 0 }]);
    assert.equal(q.metrics().waiting, 1);
  });

  it('shutdown cancels waiting items', () => {
    const clock = new FakeClock();
    const q = createDelayingQueue<string>({ clock });
    q.addAfter('a', 100);
    q.shutDown();
    clock.step(1000);
    assert.equal(q.len(), 0);
    assert.equal(clock.pendingTimers(), 0);
  });

  it('an item both processing and waiting is handed out again only after done', async () => {
    const clock = new FakeClock();
    const q = createDelayingQueue<string>({ clock });
    q.add('a');
    await q.get();
    q.addAfter('a', 10);
    clock.step(10);
    assert.equal(q.len(), 0);
    q.done('a');
    assert.equal(q.len(), 1);
  });
});

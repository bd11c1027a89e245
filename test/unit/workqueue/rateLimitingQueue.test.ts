import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRateLimitingQueue } from '../../../src/workqueue/rateLimitingQueue.ts';
import { ItemExponentialFailureRateLimiter } from '../../../src/workqueue/rateLimiter.ts';
import { createWorkQueue } from '../../../src/workqueue/index.ts';
import { FakeClock } from '../../../src/shared/clock.ts';

describe('rate-limiting queue', () => {
  it('addRateLimited waits longer on each failure until forget', async () => {
    const clock = new FakeClock();
    const q = createRateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(10, 1000) });
    const readyAfter = async (): Promise<number> => {
      let waited = 0;
      while (q.len() === 0) {
        clock.step(1);
        waited++;
      }
      const { item } = await q.get();
      q.done(item!);
      return waited;
    };
    q.addRateLimited('a');
    assert.equal(await readyAfter(), 10);
    q.addRateLimited('a');
    assert.equal(await readyAfter(), 20);
    q.addRateLimited('a');
    assert.equal(await readyAfter(), 40);
    assert.equal(q.numRequeues('a'), 3);
    q.forget('a');
    assert.equal(q.numRequeues('a'), 0);
    q.addRateLimited('a');
    assert.equal(await readyAfter(), 10);
    assert.equal(q.metrics().retries, 4);
  });

  it('the default limiter throttles a storm of distinct failures to 10 per second after a burst of 100', () => {
    const clock = new FakeClock();
    const q = createWorkQueue<string>({ clock });
    for (let i = 0; i < 120; i++) q.addRateLimited(`k${i}`);
    clock.step(5);
    assert.equal(q.len(), 100);
    clock.step(1000);
    assert.equal(q.len(), 110);
  });

  it('snapshot shows waiting items with their retry count and ready time', () => {
    const clock = new FakeClock(0);
    const q = createRateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(100, 1000) });
    q.addRateLimited('a');
    q.addRateLimited('a');
    assert.deepEqual(q.snapshot(), [{ item: 'a', state: 'waiting', since: 0, until: 100, reason: 'rateLimited', retries: 2 }]);
  });

  it('reports rateLimited and forget events', () => {
    const clock = new FakeClock(0);
    const q = createRateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(7, 1000) });
    const seen: string[] = [];
    q.onEvent((e) => seen.push(e.kind === 'rateLimited' ? `rateLimited ${e.delayMs} ${e.retries}` : e.kind));
    q.addRateLimited('a');
    q.forget('a');
    assert.deepEqual(seen, ['rateLimited 7 1', 'forget']);
  });

  it('ignores rate-limited adds after shutdown', () => {
    const clock = new FakeClock();
    const q = createWorkQueue<string>({ clock });
    q.shutDown();
    q.addRateLimited('a');
    clock.step(10_000);
    assert.equal(q.len(), 0);
    assert.equal(q.numRequeues('a'), 0);
  });
});

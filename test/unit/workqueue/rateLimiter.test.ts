import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialFailureRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
} from '../../../src/workqueue/rateLimiter.ts';
import { FakeClock } from '../../../src/shared/clock.ts';

describe('rate limiters', () => {
  it('per-item exponential: 5 ms doubling per failure up to 1000 s, independent per item', () => {
    const rl = new ItemExponentialFailureRateLimiter<string>();
    assert.deepEqual([rl.when('a'), rl.when('a'), rl.when('a'), rl.when('b')], [5, 10, 20, 5]);
    assert.equal(rl.numRequeues('a'), 3);
    for (let i = 0; i < 40; i++) rl.when('a');
    assert.equal(rl.when('a'), 1_000_000);
    rl.forget('a');
    assert.equal(rl.numRequeues('a'), 0);
    assert.equal(rl.when('a'), 5);
  });

  it('token bucket: a burst passes at once, then one per 1/qps, refilled over time', () => {
    const clock = new FakeClock();
    const rl = new BucketRateLimiter<string>(10, 3, clock);
    assert.deepEqual([rl.when('a'), rl.when('b'), rl.when('c')], [0, 0, 0]);
    assert.equal(rl.when('d'), 100);
    assert.equal(rl.when('e'), 200);
    clock.step(1000);
    // 10 tokens accrued minus the 2 borrowed, capped at the burst of 3.
    assert.deepEqual([rl.when('f'), rl.when('g'), rl.when('h'), rl.when('i')], [0, 0, 0, 100]);
  });

  it('fast then slow', () => {
    const rl = new ItemFastSlowRateLimiter<string>(1, 1000, 2);
    assert.deepEqual([rl.when('a'), rl.when('a'), rl.when('a')], [1, 1, 1000]);
  });

  it('max-of takes the longest delay and forgets everywhere', () => {
    const rl = new MaxOfRateLimiter<string>(new ItemFastSlowRateLimiter(50, 500, 1), new ItemExponentialFailureRateLimiter(5, 10_000));
    assert.deepEqual([rl.when('a'), rl.when('a')], [50, 500]);
    assert.equal(rl.numRequeues('a'), 2);
    rl.forget('a');
    assert.equal(rl.when('a'), 50);
  });

  it('the default controller limiter combines 5 ms exponential with 10 qps / burst 100', () => {
    const clock = new FakeClock();
    const rl = defaultControllerRateLimiter<string>(clock);
    const delays = Array.from({ length: 101 }, (_, i) => rl.when(`k${i}`));
    assert.deepEqual(delays.slice(0, 100), new Array(100).fill(5));
    assert.equal(delays[100], 100);
  });
});

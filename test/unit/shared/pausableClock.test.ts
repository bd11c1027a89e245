import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, PausableClock } from '../../../src/shared/clock.ts';

test('a paused clock stands still and fires nothing; resumed, timers keep the delay they had left', () => {
  const base = new FakeClock(1_000);
  const clock = new PausableClock(base);
  const fired: number[] = [];
  clock.setTimer(2_000, () => fired.push(clock.now()));
  base.step(500);
  assert.equal(clock.now(), 1_500);

  clock.pause();
  base.step(10_000);
  assert.equal(clock.now(), 1_500, 'time stands still while paused');
  assert.deepEqual(fired, [], 'no timer fires while paused');

  clock.resume();
  base.step(1_499);
  assert.deepEqual(fired, []);
  base.step(1);
  assert.deepEqual(fired, [3_000], 'fired 2 s of running time after it was set');
});

test('timers set or cancelled while paused, and repeated pause/resume', () => {
  const base = new FakeClock(0);
  const clock = new PausableClock(base);
  const fired: string[] = [];
  clock.pause();
  clock.pause();
  clock.setTimer(100, () => fired.push('a'));
  const b = clock.setTimer(50, () => fired.push('b'));
  b.cancel();
  base.step(1_000);
  assert.deepEqual(fired, []);
  clock.resume();
  clock.resume();
  base.step(99);
  clock.pause();
  base.step(1_000);
  clock.resume();
  base.step(1);
  assert.deepEqual(fired, ['a']);
  assert.equal(base.pendingTimers(), 0);
});

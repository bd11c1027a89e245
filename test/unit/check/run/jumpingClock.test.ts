import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JumpingClock } from '../../../../src/check/run/jumpingClock.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a scenario step does not fall due while the controller restarts: the clock stands still until it has started again', async () => {
  const clock = new JumpingClock();
  const fired: string[] = [];
  clock.setTimer(60, () => fired.push('next step'));
  clock.hold();
  const heldAt = clock.now();
  await sleep(150);
  assert.deepEqual(fired, [], 'the step waits for the restart');
  assert.equal(clock.now(), heldAt, 'no scenario time passed while held');
  clock.jump();
  assert.deepEqual(fired, [], 'a quiet controller does not jump the clock while one is starting');
  clock.release();
  assert.ok(clock.now() - heldAt < 20, 'the clock goes on from where it stood');
  await sleep(100);
  assert.deepEqual(fired, ['next step'], 'the step comes as long after the restart as it was to come after the kill');
  clock.stop();
});

test('restarts inside a restart: the clock goes on only when the last one has started', async () => {
  const clock = new JumpingClock();
  const fired: string[] = [];
  clock.setTimer(10, () => fired.push('step'));
  clock.hold();
  clock.hold();
  clock.release();
  await sleep(60);
  assert.deepEqual(fired, []);
  clock.release();
  await sleep(60);
  assert.deepEqual(fired, ['step']);
  clock.stop();
});

import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { FakeClock } from '../../../src/shared/clock.ts';
import { RefreshScheduler } from '../../../src/vscode/tree/refreshScheduler.ts';

describe('tree refresh scheduler', () => {
  it('coalesces 1,000 changes a second into at most five refreshes a second', () => {
    const clock = new FakeClock(0);
    const fired: (string[] | undefined)[] = [];
    const s = new RefreshScheduler<string>({ clock, fire: (items) => fired.push(items), intervalMs: 200, maxItems: 10_000 });
    for (let ms = 0; ms < 1000; ms++) {
      s.mark(`obj-${ms % 50}`);
      clock.step(1);
    }
    clock.step(200);
    assert.ok(fired.length <= 6, `${fired.length} refreshes`);
    assert.ok(fired.length >= 5);
    assert.deepEqual(new Set(fired.flatMap((f) => f ?? [])).size, 50, 'every changed element was refreshed');
    assert.ok(fired.every((f) => f && f.length <= 50), 'each element at most once per refresh');
  });

  it('turns too many dirty elements into one full refresh', () => {
    const clock = new FakeClock(0);
    const fired: (number[] | undefined)[] = [];
    const s = new RefreshScheduler<number>({ clock, fire: (items) => fired.push(items), maxItems: 10 });
    for (let i = 0; i < 11; i++) s.mark(i);
    clock.step(300);
    assert.deepEqual(fired, [undefined]);
  });

  it('fires the first change without waiting a whole interval', () => {
    const clock = new FakeClock(10_000);
    const fired: number[] = [];
    const s = new RefreshScheduler<number>({ clock, fire: () => fired.push(clock.now()) });
    s.mark(1);
    clock.step(0);
    assert.deepEqual(fired, [10_000]);
    s.mark(2);
    clock.step(50);
    assert.equal(fired.length, 1, 'the next one waits for the interval');
    clock.step(150);
    assert.deepEqual(fired, [10_000, 10_200]);
  });
});

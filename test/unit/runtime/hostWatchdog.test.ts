import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { HostWatchdog } from '../../../src/runtime/hostWatchdog.ts';

// The watchdog's judgement, with the host's clock and CPU time played by the test: every check the
// watchdog makes (it reads the host's CPU once per check) moves host time on by 50 ms, so the
// outcome does not depend on how fast this machine runs the real 50 ms interval.

function watch() {
  let now = 0;
  let cpu = 0;
  let checks = 0;
  let cpuShare = 1;
  let each: () => void = () => {};
  const stalls: number[] = [];
  const dog = new HostWatchdog({
    stallMs: 200,
    hardExtraMs: 1000,
    now: () => now,
    cpuMs: () => {
      now += 50;
      cpu += 50 * cpuShare;
      checks++;
      each();
      return cpu;
    },
    onStall: (ms) => stalls.push(ms),
  });
  /** Lets `ms` of host time pass, the host burning `share` of it in CPU, `onCheck` at every check. */
  const pass = async (ms: number, share: number, onCheck: () => void = () => {}) => {
    cpuShare = share;
    each = onCheck;
    const until = checks + ms / 50;
    while (checks < until && stalls.length === 0) await sleep(10);
  };
  return { dog, stalls, pass };
}

test('a host silent past the limit while it burns CPU is judged blocked, once', async () => {
  const w = watch();
  w.dog.heartbeat();
  await w.pass(150, 1);
  assert.deepEqual(w.stalls, [], 'not before the limit');
  await w.pass(700, 1);
  await sleep(120);
  w.dog.stop();
  assert.equal(w.stalls.length, 1);
  assert.ok((w.stalls[0] ?? 0) > 200);
});

test('a host silent because it gets no CPU (a busy machine) is stopped only at the hard limit', async () => {
  const w = watch();
  w.dog.heartbeat();
  await w.pass(800, 0.05);
  assert.deepEqual(w.stalls, []);
  await w.pass(800, 0.05);
  w.dog.stop();
  assert.equal(w.stalls.length, 1);
  assert.ok((w.stalls[0] ?? 0) > 1200);
});

test('messages count as signs of life, and a host that never beats is never judged', async () => {
  const talking = watch();
  talking.dog.heartbeat();
  await talking.pass(800, 1, () => talking.dog.message());
  talking.dog.stop();
  assert.deepEqual(talking.stalls, []);

  const mute = watch();
  mute.dog.message(); // a host that speaks before it beats does not beat at all
  await sleep(300);
  mute.dog.stop();
  assert.deepEqual(mute.stalls, []);
});

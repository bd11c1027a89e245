import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inOrder } from '../../../../src/check/run/inOrder.ts';

// Runs a few at a time, results in the order planned, none started once the budget says no.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('results come in index order, with at most atOnce running', async () => {
  let running = 0;
  let most = 0;
  const got: number[] = [];
  for await (const i of inOrder(5, 2, () => true, async (i) => {
    most = Math.max(most, ++running);
    await sleep(i % 2 === 0 ? 30 : 5);
    running--;
    return i;
  })) got.push(i);
  assert.deepEqual(got, [0, 1, 2, 3, 4]);
  assert.equal(most, 2);
});

test('no task starts once mayStart refuses', async () => {
  let allowed = 3;
  const got: number[] = [];
  for await (const i of inOrder(10, 2, () => allowed-- > 0, async (i) => i)) got.push(i);
  assert.deepEqual(got, [0, 1, 2]);
});

test('a caller that leaves early waits for the tasks still running', async () => {
  let started = 0;
  let finished = 0;
  for await (const i of inOrder(6, 2, () => true, async (i) => {
    started++;
    await sleep(i === 1 ? 40 : 5);
    finished++;
    return i;
  })) {
    if (i === 0) break;
  }
  assert.ok(started < 6);
  assert.equal(finished, started);
});

test('runs ahead get ready while atOnce have their turn; of those waiting, the earliest planned goes first', async () => {
  let ready = 0;
  let mostReady = 0;
  let active = 0;
  let mostActive = 0;
  const order: number[] = [];
  const got: number[] = [];
  for await (const i of inOrder(6, 2, () => true, async (i, turn) => {
    mostReady = Math.max(mostReady, ++ready);
    // Run 2 gets ready after run 3: both wait for a turn, and 2 still goes first.
    await sleep(i === 2 ? 5 : 1);
    await turn();
    ready--;
    order.push(i);
    mostActive = Math.max(mostActive, ++active);
    await sleep(20);
    active--;
    return i;
  }, 2)) got.push(i);
  assert.deepEqual(got, [0, 1, 2, 3, 4, 5]);
  assert.equal(mostActive, 2);
  assert.equal(mostReady, 4, 'ahead more than atOnce get ready');
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5]);
});

test('a slow task early in the plan does not hold back the tasks after it (only atOnce run at a time)', async () => {
  let running = 0;
  let most = 0;
  let startedWhileFirstRan = 0;
  let firstDone = false;
  const got: number[] = [];
  for await (const i of inOrder(8, 2, () => true, async (i) => {
    if (!firstDone && i > 0) startedWhileFirstRan++;
    most = Math.max(most, ++running);
    await sleep(i === 0 ? 60 : 5);
    if (i === 0) firstDone = true;
    running--;
    return i;
  })) got.push(i);
  assert.deepEqual(got, [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.equal(most, 2);
  assert.equal(startedWhileFirstRan, 7);
});

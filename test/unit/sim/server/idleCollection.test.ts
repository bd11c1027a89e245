// A quiet server gives its garbage back: V8 alone would keep a burst's garbage until the heap grows
// again, holding its pages (RSS) however long the sim sits idle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { collectGarbageWhenIdle } from '../../../../src/sim/server/idleCollection.ts';

const MB = 1024 * 1024;

test('once the server is quiet, a heap grown by garbage is collected', async () => {
  const server = createServer();
  const stop = collectGarbageWhenIdle(server);
  try {
    const before = process.memoryUsage().heapUsed;
    // 200 MB of objects that die at once, as a burst of large writes leaves its request bodies.
    let garbage: string[][] | undefined = Array.from({ length: 200 }, (_, i) => Array.from({ length: 10_000 }, (_, j) => `${i}:${j}:${'x'.repeat(60)}`));
    assert.ok(process.memoryUsage().heapUsed - before > 100 * MB, 'the garbage is on the heap');
    garbage = undefined;
    let grown = process.memoryUsage().heapUsed - before;
    for (let i = 0; i < 50 && grown > 50 * MB; i++) {
      await new Promise((r) => setTimeout(r, 200));
      grown = process.memoryUsage().heapUsed - before;
    }
    assert.ok(grown < 50 * MB, `${Math.round(grown / MB)} MB still held after 10 s idle`);
    assert.equal(garbage, undefined);
  } finally {
    stop();
  }
});

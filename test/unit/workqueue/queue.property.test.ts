import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createQueue } from '../../../src/workqueue/queue.ts';

// The queue's guarantees under any interleaving of adds, gets and dones by several workers:
// exclusive (never two workers on one item), stingy (one hand-out per burst of adds), and nothing
// lost (every add is followed by a hand-out that starts after it).

const ITEMS = ['a', 'b', 'c', 'd'];
const WORKERS = 3;

type Command = { op: 'add'; item: string } | { op: 'get'; worker: number } | { op: 'done'; worker: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), item: fc.constantFrom(...ITEMS) }),
  fc.record({ op: fc.constant('get' as const), worker: fc.integer({ min: 0, max: WORKERS - 1 }) }),
  fc.record({ op: fc.constant('done' as const), worker: fc.integer({ min: 0, max: WORKERS - 1 }) }),
);

describe('work queue properties', () => {
  it('exclusive, deduplicating and lossless under any interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 60 }), async (commands) => {
        const q = createQueue<string>();
        const holding: (string | undefined)[] = new Array(WORKERS).fill(undefined);
        /** An add happened that no hand-out has answered yet. */
        const owed = new Set<string>();
        const take = (worker: number, item: string): void => {
          assert.ok(!holding.includes(item), `${item} handed to two workers`);
          holding[worker] = item;
          owed.delete(item);
        };
        for (const c of commands) {
          if (c.op === 'add') {
            q.add(c.item);
            owed.add(c.item);
          } else if (c.op === 'get') {
            if (holding[c.worker] !== undefined || q.len() === 0) continue;
            const { item, shutdown } = await q.get();
            assert.equal(shutdown, false);
            take(c.worker, item!);
          } else {
            const item = holding[c.worker];
            if (item === undefined) continue;
            holding[c.worker] = undefined;
            q.done(item);
          }
          assert.ok(q.len() <= ITEMS.length, 'deduplicated: at most one queued entry per item');
        }
        // Quiesce: finish what is held, then keep one worker going until the queue is empty.
        for (let w = 0; w < WORKERS; w++) {
          const item = holding[w];
          if (item !== undefined) {
            holding[w] = undefined;
            q.done(item);
          }
        }
        while (q.len() > 0) {
          const { item } = await q.get();
          take(0, item!);
          holding[0] = undefined;
          q.done(item!);
        }
        assert.deepEqual([...owed], [], 'every add was answered by a hand-out');
      }),
      { numRuns: 300 },
    );
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realClock } from '../../../src/shared/clock.ts';
import { defineController } from '../../../src/controllerProtocol/api.ts';
import { ControllerLoop } from '../../../src/host/engine/controllerLoop.ts';
import { WorkQueueAdapter } from '../../../src/host/queueAdapter.ts';
import { createWorkQueue } from '../../../src/workqueue/index.ts';
import type { HostMessage } from '../../../src/controllerProtocol/protocol.ts';
import type { QueueSnapshot } from '../../../src/controllerProtocol/records.ts';
import { FakeInformer, FakeWriter } from './engine/fakes.ts';

// What the host tells its parent about the queue while thousands of keys pass through it: a few
// bounded snapshots, not one copy of the whole queue per change (which made a controller that
// creates its own kind quadratic).

const CM = { apiVersion: 'v1', kind: 'ConfigMap' };
const N = 3000;
/** What a snapshot may list at most (QUEUE_SNAPSHOT_KEYS). */
const QUEUE_SNAPSHOT_KEYS = 200;

test('thousands of queued keys produce bounded queue snapshots, with complete counts, and end idle', async () => {
  const informer = new FakeInformer(CM);
  const messages: HostMessage[] = [];
  let reconciled = 0;
  let allDone: () => void = () => {};
  const done = new Promise<void>((r) => (allDone = r));
  const loop = new ControllerLoop({
    definition: defineController({
      name: 'cm',
      for: CM,
      async reconcile() {
        // The first reconcile is slow, so the queue stands deep for a while.
        if (reconciled === 0) await new Promise((r) => setTimeout(r, 250));
        if (++reconciled === N) allDone();
      },
    }),
    informers: [informer],
    queue: new WorkQueueAdapter(createWorkQueue<string>({ name: 'cm', clock: realClock }), realClock),
    writer: new FakeWriter(),
    clock: realClock,
    workers: 1,
    reconcileTimeoutMs: 1000,
    mirrorCache: false,
    send: (m) => messages.push(m),
  });
  await loop.start();
  for (let i = 0; i < N; i++) informer.emit('ADDED', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'default', resourceVersion: String(i + 1) } });
  const snapshots = () => messages.filter((m): m is { type: 'queue'; snapshot: QueueSnapshot } => m.type === 'queue').map((m) => m.snapshot);
  await done;
  await new Promise((r) => setTimeout(r, 300));
  await loop.stop();

  const all = snapshots();
  // Bounded in size: never the whole queue.
  for (const s of all) assert.ok(s.keys.length <= QUEUE_SNAPSHOT_KEYS, `a snapshot listed ${s.keys.length} keys`);
  // Bounded in number: far fewer snapshots than the ~3 queue changes each key makes.
  assert.ok(all.length < N / 10, `${all.length} snapshots for ${N} keys`);
  // The counts stay complete while the list is cut short, and say how much is left out.
  const big = all.find((s) => s.depth > QUEUE_SNAPSHOT_KEYS);
  assert.ok(big, 'some snapshot saw the queue deep');
  assert.equal(big.omitted, big.depth + big.processing + big.waiting - big.keys.length);
  // The last word is the empty queue, and idle.
  assert.deepEqual({ ...all.at(-1), at: 0 }, { at: 0, depth: 0, processing: 0, waiting: 0, keys: [] });
  const idle = messages.filter((m) => m.type === 'idle').at(-1);
  assert.deepEqual(idle, { type: 'idle', idle: true, settled: true });
});

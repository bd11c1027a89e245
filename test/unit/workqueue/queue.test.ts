import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createQueue } from '../../../src/workqueue/queue.ts';
import type { QueueEvent } from '../../../src/workqueue/queue.ts';
import { FakeClock } from '../../../src/shared/clock.ts';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('work queue', () => {
  it('hands items out in the order they were added', async () => {
    const q = createQueue<string>();
    q.add('a');
    q.add('b');
    q.add('c');
    assert.deepEqual([(await q.get()).item, (await q.get()).item, (await q.get()).item], ['a', 'b', 'c']);
  });

  it('deduplicates an item added again while still queued', async () => {
    const q = createQueue<string>();
    q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(q.len(), 2);
    assert.equal((await q.get()).item, 'a');
    assert.equal((await q.get()).item, 'b');
    assert.equal(q.len(), 0);
  });

  it('never hands an item to two workers at once', async () => {
    const q = createQueue<string>();
    q.add('a');
    const first = await q.get();
    q.add('a');
    assert.equal(q.len(), 0, 'the re-add waits for done');
    let second: string | undefined;
    void q.get().then((r) => (second = r.item));
    await flush();
    assert.equal(second, undefined);
    q.done(first.item!);
    await flush();
    assert.equal(second, 'a');
  });

  it('re-add while processing is handed out after done, once', async () => {
    const q = createQueue<string>();
    q.add('k');
    await q.get();
    q.add('k');
    q.add('k');
    q.done('k');
    assert.equal(q.len(), 1);
    assert.equal((await q.get()).item, 'k');
    q.done('k');
    assert.equal(q.len(), 0);
  });

  it('get waits for an item and resolves as soon as one is added', async () => {
    const q = createQueue<string>();
    const pending = q.get();
    q.add('x');
    assert.deepEqual(await pending, { item: 'x', shutdown: false });
  });

  it('an item handed to a waiting worker cannot be taken by another get', async () => {
    const q = createQueue<string>();
    const w1 = q.get();
    const w2 = q.get();
    q.add('x');
    q.add('y');
    assert.equal((await w1).item, 'x');
    assert.equal((await w2).item, 'y');
  });

  it('after shutDown adds are ignored, queued items still come out, then shutdown', async () => {
    const q = createQueue<string>();
    q.add('a');
    q.shutDown();
    q.add('b');
    assert.equal(q.shuttingDown(), true);
    assert.deepEqual(await q.get(), { item: 'a', shutdown: false });
    assert.deepEqual(await q.get(), { item: undefined, shutdown: true });
  });

  it('shutDown wakes waiting workers with shutdown', async () => {
    const q = createQueue<string>();
    const waiting = q.get();
    q.shutDown();
    assert.equal((await waiting).shutdown, true);
  });

  it('shutDownWithDrain resolves once every item in progress is done', async () => {
    const q = createQueue<string>();
    q.add('a');
    q.add('b');
    await q.get();
    await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    q.done('a');
    await flush();
    assert.equal(drained, false);
    q.done('b');
    await drain;
    assert.equal(drained, true);
  });

  it('measures depth, adds, queue latency and work duration on the injected clock', async () => {
    const clock = new FakeClock();
    const q = createQueue<string>({ name: 'q', clock });
    q.add('a');
    q.add('a');
    clock.step(30);
    await q.get();
    clock.step(70);
    let m = q.metrics();
    assert.equal(m.unfinishedWorkMs, 70);
    assert.equal(m.longestRunningMs, 70);
    q.done('a');
    m = q.metrics();
    assert.equal(m.adds, 2);
    assert.equal(m.depth, 0);
    assert.deepEqual(m.latency, { count: 1, sumMs: 30, maxMs: 30 });
    assert.deepEqual(m.workDuration, { count: 1, sumMs: 70, maxMs: 70 });
  });

  it('latency of an item re-added during processing counts from done, not from the add', async () => {
    const clock = new FakeClock();
    const q = createQueue<string>({ clock });
    q.add('a');
    await q.get();
    q.add('a');
    clock.step(100);
    q.done('a');
    clock.step(5);
    await q.get();
    assert.equal(q.metrics().latency.maxMs, 5);
  });

  it('snapshot shows queued and processing items, and a pending re-add', async () => {
    const clock = new FakeClock(1000);
    const q = createQueue<string>({ clock });
    q.add('p');
    q.add('w');
    await q.get();
    q.add('p');
    assert.deepEqual(q.snapshot(), [
      { item: 'w', state: 'queued', since: 1000, retries: 0 },
      { item: 'p', state: 'processing', since: 1000, retries: 0, requeued: true },
    ]);
  });

  it('reports add, get and done events to listeners', async () => {
    const clock = new FakeClock(0);
    const q = createQueue<string>({ name: 'ctl', clock });
    const events: QueueEvent<string>[] = [];
    const off = q.onEvent((e) => events.push(e));
    q.add('a');
    q.add('a');
    await q.get();
    q.done('a');
    off();
    q.add('b');
    assert.deepEqual(events.map((e) => `${e.kind} ${e.item}`), ['add a', 'add a', 'get a', 'done a']);
    assert.equal(events[1]!.kind === 'add' && events[1]!.deduplicated, true);
    assert.equal(events[0]!.queue, 'ctl');
  });
});

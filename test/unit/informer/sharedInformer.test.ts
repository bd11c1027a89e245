import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../src/shared/k8s.ts';
import { obj } from './fixtures/fakeSource.ts';
import type { FakeSource } from './fixtures/fakeSource.ts';
import { rig } from './fixtures/rig.ts';

const seedN = (n: number) => (s: FakeSource) => {
  for (let i = 0; i < n; i++) s.create(obj('ns', `o${i}`));
};

describe('shared informer: handlers', () => {
  it('handlers receive the cached objects themselves, not copies', async () => {
    const r = rig({}, {}, seedN(1));
    const seen: unknown[] = [];
    r.informer.addEventHandler({ onAdd: (o) => void seen.push(o) });
    r.informer.run();
    await r.tick();
    assert.equal(seen[0], r.informer.indexer.get('ns/o0'));
    assert.equal(seen[0], r.source.get('ns/o0'));
  });

  it('a relist that finds objects unchanged tells handlers nothing (no resync configured)', async () => {
    const r = rig({}, { expiredForm: 'http' }, seedN(2));
    r.informer.run();
    await r.tick(5000);
    r.source.bumpResourceVersion();
    r.source.compact();
    r.source.dropWatches(new Error('x'));
    // The watch's backoff, then the relist's (client-go waits before the list that answers a 410).
    await r.tick(1200);
    await r.tick(1200);
    assert.equal(r.informer.stats().relists, 1);
    assert.deepEqual(r.log, ['add* ns/o0 1', 'add* ns/o1 2']);
  });

  it('resync re-delivers every cached object as an update with old === new', async () => {
    const r = rig({ resyncPeriodMs: 10_000 }, {}, seedN(2));
    r.informer.run();
    await r.tick();
    await r.tick(10_000);
    assert.deepEqual(r.log.slice(2).sort(), ['update ns/o0 1 (sync)', 'update ns/o1 2 (sync)']);
    await r.tick(10_000);
    assert.equal(r.log.length, 6);
  });

  it('a slow async handler does not hold back the others, and gets everything in order later', async () => {
    const r = rig({}, {}, seedN(1));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: string[] = [];
    const reg = r.informer.addEventHandler(
      {
        onAdd: async (o) => {
          slow.push(`add ${o.metadata.name}`);
          await gate;
        },
        onUpdate: (_old, o) => void slow.push(`update ${o.metadata.name}`),
      },
      { name: 'slow' },
    );
    r.informer.run();
    await r.tick();
    for (let i = 0; i < 5; i++) r.source.update(obj('ns', 'o0', { i: String(i) }));
    await r.tick();
    assert.equal(r.log.length, 6);
    assert.deepEqual(slow, ['add o0']);
    assert.equal(reg.queued(), 6);
    assert.equal(reg.hasSynced(), false);
    assert.equal(r.informer.hasSynced(), true);
    assert.deepEqual(r.informer.stats().handlers.find((h) => h.name === 'slow')?.queued, 6);
    release();
    await r.tick();
    assert.deepEqual(slow, ['add o0', 'update o0', 'update o0', 'update o0', 'update o0', 'update o0']);
    assert.equal(reg.queued(), 0);
    assert.equal(reg.hasSynced(), true);
  });

  it('a throwing or rejecting handler is reported and keeps receiving; the others are unaffected', async () => {
    const r = rig({}, {}, seedN(2));
    let calls = 0;
    r.informer.addEventHandler(
      {
        onAdd: (o) => {
          calls++;
          if (o.metadata.name === 'o0') throw new Error('sync boom');
          return Promise.reject(new Error('async boom'));
        },
      },
      { name: 'bad' },
    );
    const contexts: unknown[] = [];
    r.informer.onError((_e, ctx) => contexts.push(ctx));
    r.informer.run();
    await r.tick();
    assert.equal(calls, 2);
    assert.deepEqual(r.log, ['add* ns/o0 1', 'add* ns/o1 2']);
    assert.deepEqual(r.errors.map(String), ['Error: sync boom', 'Error: async boom']);
    assert.deepEqual(contexts, [{ handler: 'bad' }, { handler: 'bad' }]);
    assert.ok(r.probes.some((p) => p.kind === 'error' && p.message.includes('handler bad')));
    assert.equal(r.informer.stats().handlerErrors, 2);
  });

  it('a handler added late first receives the current state as adds', async () => {
    const r = rig({}, {}, seedN(2));
    r.informer.run();
    await r.tick();
    const late: string[] = [];
    const reg = r.informer.addEventHandler({ onAdd: (o, initial) => void late.push(`${o.metadata.name} ${initial}`), onUpdate: (_old, o) => void late.push(`update ${o.metadata.name}`) });
    r.source.update(obj('ns', 'o1'));
    await r.tick();
    assert.deepEqual(late, ['o0 false', 'o1 false', 'update o1']);
    assert.equal(reg.hasSynced(), true);
  });

  it('a removed handler gets nothing more', async () => {
    const r = rig({}, {}, seedN(1));
    const seen: string[] = [];
    const reg = r.informer.addEventHandler({ onAdd: (o) => void seen.push(o.metadata.name!) });
    r.informer.run();
    await r.tick();
    reg.remove();
    r.source.create(obj('ns', 'after'));
    await r.tick();
    assert.deepEqual(seen, ['o0']);
    assert.equal(r.log.length, 2);
  });

  it('deletes carry the final state from the watch, or the last known one for tombstones', async () => {
    const r = rig({}, { expiredForm: 'event' }, seedN(2));
    r.informer.run();
    await r.tick(5000);
    r.source.delete('ns', 'o0');
    await r.tick();
    r.source.dropWatches(new Error('x'));
    r.source.delete('ns', 'o1');
    r.source.compact();
    await r.tick(1200);
    await r.tick(1200);
    assert.deepEqual(r.log.slice(2), ['delete ns/o0 3', 'delete? ns/o1 2']);
  });
});

describe('shared informer: cache, sync, probes, stats', () => {
  it('waitForSync resolves true once synced and initial adds were handed out', async () => {
    const r = rig({}, {}, seedN(3));
    r.informer.run();
    const synced = r.informer.waitForSync();
    await r.tick();
    assert.equal(await synced, true);
    assert.equal(r.log.length, 3);
  });

  it('an empty first list still syncs', async () => {
    const r = rig();
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.hasSynced(), true);
    assert.equal(r.probes.find((p) => p.kind === 'synced')?.kind, 'synced');
  });

  it('applies the transform before storing', async () => {
    const r = rig({ transform: (o: KubeObject) => ({ ...o, metadata: { ...o.metadata, managedFields: undefined, labels: { t: 'yes' } } }) }, {}, seedN(1));
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.indexer.get('ns/o0')?.metadata.labels?.t, 'yes');
  });

  it('serves user indexes and the namespace index', async () => {
    const r = rig({ indexers: { byApp: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) } }, {}, (s) => {
      s.create(obj('a', 'x', {}, { app: 'web' }));
      s.create(obj('b', 'y', {}, { app: 'web' }));
      s.create(obj('b', 'z', {}, { app: 'db' }));
    });
    r.informer.run();
    await r.tick();
    assert.deepEqual(r.informer.indexer.indexKeys('byApp', 'web').sort(), ['a/x', 'b/y']);
    assert.deepEqual(r.informer.indexer.indexKeys('namespace', 'b').sort(), ['b/y', 'b/z']);
    r.informer.addIndexers({ byName: (o) => [o.metadata.name!] });
    assert.deepEqual(r.informer.indexer.indexKeys('byName', 'z'), ['b/z']);
  });

  it('emits list, watch, event, delta, handler and synced probes with clock timestamps', async () => {
    const r = rig({ pageSize: 1 }, {}, seedN(2));
    r.informer.run();
    await r.tick();
    r.source.create(obj('ns', 'n'));
    await r.tick();
    assert.deepEqual(r.probeKinds(), [
      'listStart', 'listPage', 'listPage', 'listEnd', 'delta', 'handler', 'delta', 'handler',
      'synced', 'watchOpen', 'event', 'delta', 'handler',
    ]);
    assert.ok(r.probes.every((p) => p.at === r.clock.now() && p.informer === 'test'));
    const h = r.probes.at(-1)!;
    assert.deepEqual(h.kind === 'handler' && [h.handler, h.type, h.key, h.resourceVersion], ['recorder', 'add', 'ns/n', '3']);
  });

  it('counts what it did in stats', async () => {
    const r = rig({}, {}, seedN(2));
    r.informer.run();
    await r.tick();
    r.source.create(obj('ns', 'n'));
    await r.tick();
    const s = r.informer.stats();
    assert.equal(s.lists, 1);
    assert.equal(s.watches, 1);
    assert.equal(s.events, 1);
    assert.equal(s.deltas, 3);
    assert.equal(s.cached, 3);
    assert.equal(s.fifoDepth, 0);
    assert.deepEqual(s.handlers, [{ name: 'recorder', queued: 0, delivered: 3, errors: 0 }]);
  });

  it('deltas a handler causes wait in the FIFO (pendingDeltas shows them) and follow once it returns, in order', async () => {
    const r = rig({}, {}, seedN(1));
    r.informer.run();
    await r.tick();
    let pendingInside: string[] = [];
    r.informer.addEventHandler({
      onAdd: (o, initial) => {
        if (initial || o.metadata.name !== 'trigger') return;
        // As a controller writing to an in-process cluster would: the events arrive while we run.
        r.source.update(obj('ns', 'o0', { a: '1' }));
        r.source.update(obj('ns', 'o0', { a: '2' }));
        pendingInside = r.informer.pendingDeltas('ns/o0').map((d) => d.type);
      },
    });
    r.source.create(obj('ns', 'trigger'));
    assert.deepEqual(pendingInside, ['Updated', 'Updated']);
    assert.deepEqual(r.informer.pendingDeltas('ns/o0'), []);
    assert.deepEqual(r.log.slice(1), ['add ns/trigger 2', 'update ns/o0 3 <- 1', 'update ns/o0 4 <- 3']);
    assert.equal(r.informer.indexer.get('ns/o0')?.metadata.resourceVersion, '4');
  });
});

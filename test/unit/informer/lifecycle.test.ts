import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../src/shared/apiError.ts';
import { obj } from './fixtures/fakeSource.ts';
import type { FakeSource } from './fixtures/fakeSource.ts';
import { rig } from './fixtures/rig.ts';

const seedN = (n: number) => (s: FakeSource) => {
  for (let i = 0; i < n; i++) s.create(obj('ns', `o${i}`));
};

describe('informer lifecycle edge cases', () => {
  it('stop from inside a handler: no handler is called again, not even for the rest of the list', async () => {
    const r = rig({}, {}, seedN(5));
    let calls = 0;
    r.informer.addEventHandler({
      onAdd: () => {
        calls++;
        if (calls === 2) r.informer.stop();
      },
    });
    r.informer.run();
    await r.tick();
    await r.tick(60_000);
    assert.equal(calls, 2);
    // Each object goes to every handler before the next one is processed.
    assert.equal(r.log.length, 2, 'the recorder saw what was processed before the stop, and nothing after');
    assert.equal(r.informer.indexer.size, 2);
    assert.equal(r.source.openWatches, 0);
  });

  it('stop during a streaming list ends it; nothing is cached or delivered', async () => {
    const r = rig({ useWatchList: true }, { watchList: 'noEndBookmark' }, seedN(3));
    r.informer.run();
    await r.tick();
    r.informer.stop();
    await r.tick(120_000);
    assert.deepEqual(r.log, []);
    assert.equal(r.informer.indexer.size, 0);
    assert.equal(r.source.listCalls.length, 0);
    assert.equal(r.source.openWatches, 0);
  });

  it('a 410 on the first list page retries at once as a consistent read, without backoff', async () => {
    const r = rig({}, {}, seedN(2));
    r.source.failNextList(ApiError.fromStatus({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 410, reason: 'Expired', message: 'too old' }));
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.hasSynced(), true);
    assert.deepEqual(r.source.listCalls.map((c) => c.resourceVersion), ['0', undefined]);
    assert.equal(r.probes.filter((p) => p.kind === 'backoff').length, 0);
  });

  it('a delete and a re-create of one key within one batch reach handlers in order', async () => {
    const r = rig({}, {}, seedN(1));
    r.informer.run();
    await r.tick();
    r.source.delete('ns', 'o0');
    r.source.create(obj('ns', 'o0', { again: 'yes' }));
    await r.tick();
    assert.deepEqual(r.log, ['add* ns/o0 1', 'delete ns/o0 2', 'add ns/o0 3']);
  });

  it('transforms watch events too, before the cache and handlers see them', async () => {
    const r = rig({ transform: (o) => ({ ...o, data: undefined }) }, {}, seedN(1));
    const seen: unknown[] = [];
    r.informer.addEventHandler({ onUpdate: (_old, o) => void seen.push(o.data) });
    r.informer.run();
    await r.tick();
    r.source.update(obj('ns', 'o0', { big: 'payload' }));
    await r.tick();
    assert.deepEqual(seen, [undefined]);
    assert.equal(r.informer.indexer.get('ns/o0')?.data, undefined);
  });

  it('no probe is emitted after stop returns', async () => {
    const r = rig({}, {}, seedN(2));
    r.informer.run();
    await r.tick();
    r.source.create(obj('ns', 'x'));
    r.informer.stop();
    const n = r.probes.length;
    r.source.create(obj('ns', 'y'));
    r.source.dropWatches(new Error('late'));
    await r.tick(60_000);
    assert.equal(r.probes.length, n);
    assert.equal(r.probes.at(-1)!.kind, 'stopped');
  });

  it('a probe listener that throws breaks nothing', async () => {
    const r = rig({}, {}, seedN(2));
    r.informer.onProbe(() => {
      throw new Error('observer bug');
    });
    r.informer.run();
    await r.tick();
    assert.equal(r.log.length, 2);
  });
});

describe('a transform that throws', () => {
  it('is reported for a watch event and the stream goes on', async () => {
    const r = rig({ transform: (o) => {
      if (o.metadata.name === 'bad') throw new Error('transform bug');
      return o;
    } }, {}, seedN(1));
    r.informer.run();
    await r.tick();
    r.source.create(obj('ns', 'bad'));
    r.source.create(obj('ns', 'good'));
    await r.tick();
    assert.match(String(r.errors[0]), /transform bug/);
    assert.equal(r.log.at(-1), 'add ns/good 3');
  });
});

describe('streaming list broken before its end', () => {
  it('a transform failing on the initial events leads to another list, never to a bare watch', async () => {
    let fail = true;
    const r = rig({ useWatchList: true, transform: (o) => {
      if (fail) throw new Error('transform bug');
      return o;
    } }, { watchList: 'supported' }, seedN(2));
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.hasSynced(), false);
    fail = false;
    await r.tick(1200);
    assert.equal(r.informer.hasSynced(), true);
    assert.ok(r.source.watchCalls.every((c) => c.sendInitialEvents === true), 'every watch so far was a streaming list');
    assert.equal(r.log.length, 2);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../src/shared/apiError.ts';
import { obj } from './fixtures/fakeSource.ts';
import type { FakeSource } from './fixtures/fakeSource.ts';
import { rig } from './fixtures/rig.ts';

const seedN = (n: number) => (s: FakeSource) => {
  for (let i = 0; i < n; i++) s.create(obj('ns', `o${i}`));
};

describe('reflector: list', () => {
  it('lists in pages of `limit`, first from any version (RV 0), then watches from the list RV', async () => {
    const r = rig({ pageSize: 3 }, {}, seedN(7));
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.hasSynced(), true);
    assert.equal(r.informer.indexer.size, 7);
    assert.deepEqual(r.source.listCalls.map((c) => [c.resourceVersion, c.limit, c.continue !== undefined]), [
      ['0', 3, false],
      [undefined, 3, true],
      [undefined, 3, true],
    ]);
    const w = r.source.watchCalls[0]!;
    assert.equal(w.resourceVersion, '7');
    assert.equal(w.allowWatchBookmarks, true);
    assert.ok(w.timeoutSeconds! >= 300 && w.timeoutSeconds! < 600);
    assert.equal(r.informer.lastSyncResourceVersion(), '7');
  });

  it('an expired continue token: the list asked for again whole, at the version it started from (client-go FullListIfExpired)', async () => {
    const r = rig({ pageSize: 2 }, {}, seedN(5));
    let expired = false;
    r.source.beforeList = (o) => {
      if (o.continue && !expired) {
        expired = true;
        r.source.expireContinueTokens();
      }
    };
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.indexer.size, 5);
    const calls = r.source.listCalls.map((c) => [c.resourceVersion, c.limit, c.continue !== undefined]);
    assert.deepEqual(calls, [['0', 2, false], [undefined, 2, true], ['0', undefined, false]]);
    assert.ok(r.probes.some((p) => p.kind === 'expired' && p.via === 'http'));
    assert.equal(r.informer.stats().expired, 1);
    assert.deepEqual(r.log.filter((l) => l.startsWith('add')).length, 5);
  });

  it('syncs while every continue token expires before it is used (compactions faster than the pages)', async () => {
    const r = rig({ pageSize: 2 }, {}, seedN(5));
    r.source.beforeList = (o) => {
      if (o.continue) r.source.expireContinueTokens();
    };
    r.informer.run();
    await r.tick(60_000);
    assert.equal(r.informer.hasSynced(), true);
    assert.equal(r.informer.indexer.size, 5);
    assert.deepEqual(r.errors, []);
  });

  it('a failing list backs off (0.8 s, doubling, jittered) and retries', async () => {
    const r = rig({}, {}, seedN(2));
    r.source.failNextList(new ApiError(500, 'boom'), 2);
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.hasSynced(), false);
    const backoffs = () => r.probes.filter((p) => p.kind === 'backoff').map((p) => (p.kind === 'backoff' ? p.delayMs : 0));
    assert.deepEqual(backoffs(), [1200]);
    await r.tick(1199);
    assert.equal(r.source.listCalls.length, 1);
    await r.tick(1);
    assert.equal(r.source.listCalls.length, 2);
    assert.deepEqual(backoffs(), [1200, 2400]);
    await r.tick(2400);
    assert.equal(r.informer.hasSynced(), true);
    assert.equal(r.errors.length, 2);
  });
});

describe('reflector: watch', () => {
  it('delivers watch events as deltas and tracks their resourceVersion', async () => {
    const r = rig({}, {}, seedN(1));
    r.informer.run();
    await r.tick();
    r.source.create(obj('ns', 'new'));
    r.source.update(obj('ns', 'o0', { k: 'v' }));
    r.source.delete('ns', 'new');
    await r.tick();
    // The informer waits on the FIFO, so each delta is processed as it arrives: server order.
    assert.deepEqual(r.log, ['add* ns/o0 1', 'add ns/new 2', 'update ns/o0 3 <- 1', 'delete ns/new 4']);
    assert.equal(r.informer.lastSyncResourceVersion(), '4');
  });

  it('a bookmark advances the resourceVersion without a delta, and the next watch resumes from it', async () => {
    const r = rig({}, {}, seedN(1));
    r.informer.run();
    await r.tick();
    const rv = r.source.bumpResourceVersion();
    r.source.bookmark();
    await r.tick();
    assert.equal(r.informer.lastSyncResourceVersion(), rv);
    assert.equal(r.probes.filter((p) => p.kind === 'delta').length, 1);
    r.clock.step(5000);
    r.source.dropWatches();
    await r.tick();
    assert.equal(r.source.watchCalls.at(-1)!.resourceVersion, rv);
  });

  it('a clean close rewatches from the last resourceVersion without relisting', async () => {
    const r = rig({}, {}, seedN(2));
    r.informer.run();
    await r.tick();
    r.source.update(obj('ns', 'o1'));
    await r.tick(5000);
    r.source.dropWatches();
    await r.tick();
    assert.equal(r.source.listCalls.length, 1);
    assert.equal(r.source.watchCalls.length, 2);
    assert.equal(r.source.watchCalls[1]!.resourceVersion, '3');
    assert.equal(r.informer.stats().reconnects, 1);
  });

  it('the server ending the watch at timeoutSeconds is a clean close', async () => {
    const r = rig({}, {}, seedN(1));
    r.informer.run();
    await r.tick();
    await r.tick(r.source.watchCalls[0]!.timeoutSeconds! * 1000);
    assert.equal(r.source.watchCalls.length, 2);
    assert.equal(r.source.listCalls.length, 1);
  });

  it('a watch closed at once without events is a failure and backs off ("very short watch")', async () => {
    const r = rig({}, {}, seedN(1));
    r.informer.run();
    await r.tick();
    r.source.dropWatches();
    await r.tick();
    assert.equal(r.source.watchCalls.length, 1);
    assert.ok(r.probes.some((p) => p.kind === 'backoff'));
    await r.tick(1200);
    assert.equal(r.source.watchCalls.length, 2);
  });

  for (const via of ['http', 'event'] as const) {
    it(`410 as ${via === 'http' ? 'a rejected watch' : 'an ERROR event'} → relist at the last synced version, whole (client-go)`, async () => {
      const r = rig({}, { expiredForm: via }, seedN(3));
      r.informer.run();
      await r.tick(5000);
      r.source.dropWatches(new Error('network down'));
      await r.tick();
      // While disconnected: writes happen and history is compacted away.
      r.source.delete('ns', 'o0');
      r.source.update(obj('ns', 'o1', { changed: 'yes' }));
      r.source.create(obj('ns', 'o9'));
      r.source.compact();
      await r.tick(1200);
      assert.ok(r.probes.some((p) => p.kind === 'expired' && p.via === via));
      // As client-go's reflector: the list that answers a 410 waits the backoff, the first one too.
      assert.ok(!r.probes.some((p) => p.kind === 'relist'));
      await r.tick(1200);
      assert.ok(r.probes.some((p) => p.kind === 'relist'));
      // A list at a version is served by the watch cache with anything as new or newer: no etcd read.
      assert.deepEqual([r.source.listCalls.length, r.source.listCalls.at(-1)!.resourceVersion, r.source.listCalls.at(-1)!.limit], [2, '3', undefined]);
      assert.deepEqual(r.log.slice(3).sort(), ['add ns/o9 6', 'delete? ns/o0 1', 'update ns/o1 5 <- 2']);
      assert.deepEqual([...r.informer.indexer.listKeys()].sort(), [...r.source.state().keys()].sort());
      // And it keeps watching from the new list.
      r.source.create(obj('ns', 'later'));
      await r.tick();
      assert.equal(r.log.at(-1), 'add ns/later 7');
    });
  }

  it('a relist at the last synced version answered 410 too → a consistent read, paged', async () => {
    const r = rig({}, {}, seedN(3));
    r.informer.run();
    await r.tick(5000);
    r.source.dropWatches(new Error('network down'));
    await r.tick();
    r.source.create(obj('ns', 'o9'));
    r.source.compact();
    r.source.failNextList(new ApiError(410, 'too old resource version: 3 (4)', 'Expired'));
    await r.tick(5000);
    await r.tick(5000);
    assert.deepEqual(r.source.listCalls.slice(1, 3).map((c) => [c.resourceVersion, c.limit]), [['3', undefined], [undefined, 500]]);
    assert.deepEqual([...r.informer.indexer.listKeys()].sort(), [...r.source.state().keys()].sort());
    assert.equal(r.log.at(-1), 'add ns/o9 4');
  });

  it('a non-410 ERROR event reports the error, backs off and rewatches without relisting', async () => {
    const r = rig({}, {}, seedN(1));
    r.informer.run();
    await r.tick(5000);
    r.source.inject({ type: 'ERROR', object: { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 500, reason: 'InternalError', message: 'etcd hiccup' } });
    await r.tick();
    assert.match(String(r.errors[0]), /etcd hiccup/);
    await r.tick(1200);
    assert.equal(r.source.watchCalls.length, 2);
    assert.equal(r.source.listCalls.length, 1);
  });

  it('a watch refused with a status (not 410, not 429) backs off, lists again at its version, and watches from there (client-go)', async () => {
    const r = rig({}, {}, seedN(1));
    r.source.failNextWatch(new ApiError(503, 'unavailable'));
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.hasSynced(), true);
    await r.tick(1200);
    assert.deepEqual(r.source.listCalls.map((c) => c.resourceVersion), ['0', '1']);
    assert.deepEqual(r.source.watchCalls.map((c) => c.resourceVersion), ['1', '1']);
    assert.equal(r.source.openWatches, 1);
  });

  it('allowed to list but not to watch (403 on every watch): the cache still follows the server, a list per backoff', async () => {
    const r = rig({}, {}, seedN(2));
    r.source.failNextWatch(new ApiError(403, 'configmaps is forbidden: User "lister" cannot watch resource "configmaps"', 'Forbidden'), 1000);
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.hasSynced(), true);
    r.source.update(obj('ns', 'o0', { changed: 'yes' }));
    r.source.delete('ns', 'o1');
    r.source.create(obj('ns', 'o2'));
    await r.tick(5000);
    assert.deepEqual(r.log.slice(2).sort(), ['add ns/o2 5', 'delete? ns/o1 2', 'update ns/o0 3 <- 1']);
    assert.match(String(r.errors[0]), /cannot watch/);
    assert.ok(r.probes.some((p) => p.kind === 'backoff'));
  });

  it('malformed events are reported and counted, not silently dropped, and the stream goes on', async () => {
    const r = rig({}, {}, seedN(1));
    r.informer.run();
    await r.tick();
    r.source.inject({ type: 'ADDED', object: { kind: 'ConfigMap' } });
    r.source.inject({ type: 'MODIFIED', object: { metadata: { namespace: 'ns' } } });
    r.source.inject({ type: 'WHAT', object: {} });
    r.source.inject({ type: 'BOOKMARK', object: { metadata: {} } });
    r.source.create(obj('ns', 'fine'));
    await r.tick();
    assert.equal(r.informer.stats().malformed, 4);
    assert.equal(r.errors.length, 4);
    assert.equal(r.probes.filter((p) => p.kind === 'error').length, 4);
    assert.equal(r.log.at(-1), 'add ns/fine 2');
  });

  it('backoff grows to 30 s at most and resets after a healthy period', async () => {
    const r = rig({}, {}, seedN(1));
    r.source.failNextWatch(new ApiError(500, 'down'), 8);
    r.informer.run();
    await r.tick();
    for (let i = 0; i < 8; i++) await r.tick(30_000);
    const delays = r.probes.flatMap((p) => (p.kind === 'backoff' ? [p.delayMs] : []));
    assert.deepEqual(delays, [1200, 2400, 4800, 9600, 19200, 30000, 30000, 30000]);
    assert.equal(r.source.openWatches, 1);
    await r.tick(121_000);
    r.source.dropWatches(new Error('blip'));
    await r.tick();
    const last = r.probes.filter((p) => p.kind === 'backoff').at(-1);
    assert.equal(last?.kind === 'backoff' ? last.delayMs : undefined, 1200);
  });
});

describe('reflector: deadlines and server verdicts', () => {
  it('a watch silent for watchIdleTimeoutMs is resumed from the last RV, said only when the resumed watch brings changes at once; events and bookmarks keep it open', async () => {
    const r = rig({ watchIdleTimeoutMs: 10_000 }, {}, seedN(2));
    r.informer.run();
    await r.tick();
    assert.equal(r.source.watchCalls.length, 1);
    // Bookmarks every 5 s: alive for a minute.
    for (let i = 0; i < 12; i++) {
      r.source.bookmark();
      await r.tick(5_000);
    }
    assert.equal(r.source.watchCalls.length, 1);
    assert.deepEqual(r.errors, []);
    // A last bookmark, then nothing at all: closed 10–12.5 s later, resumed from the same version, no relist.
    r.source.bookmark();
    await r.tick();
    const rv = r.informer.lastSyncResourceVersion();
    await r.tick(9_000);
    assert.equal(r.source.watchCalls.length, 1);
    await r.tick(3_500);
    assert.equal(r.source.watchCalls.length, 2);
    assert.equal(r.source.watchCalls[1]!.resourceVersion, rv);
    assert.equal(r.source.listCalls.length, 1);
    // kube-apiserver sends no bookmark while nothing of the kind changes anywhere (its bookmarks carry
    // the last event's version): a quiet kind's watch is resumed without a word, every time.
    await r.tick(1_000);
    assert.deepEqual(r.errors.map(String), []);
    await r.tick(12_500);
    assert.equal(r.source.watchCalls.length, 3);
    assert.deepEqual(r.errors.map(String), []);
    // A change well after the resume is just a change.
    await r.tick(5_000);
    r.source.create(obj('ns', 'later'));
    await r.tick();
    assert.equal(r.errors.length, 0, 'a change long after the reconnect is no evidence');
    // A change the resumed watch delivers at once was withheld by the silent one: that is said.
    await r.tick(12_500);
    assert.equal(r.source.watchCalls.length, 4);
    r.source.create(obj('ns', 'withheld'));
    await r.tick(500);
    assert.equal(r.errors.length, 1, r.errors.map(String).join('; '));
    assert.match(String(r.errors[0]), /^Error: the watch received nothing, not even a bookmark, for 1\d s, while the server had changes to send \(a dead connection\): resumed from resourceVersion \d+$/);
  });

  it('by default a quiet watch lives its own random timeout (5–10 min, client-go minWatchTimeout), not 2 min, even where the server never ends it; then it is resumed without a word', async () => {
    const r = rig({}, { ignoresTimeoutSeconds: true }, seedN(2));
    r.informer.run();
    await r.tick();
    const first = r.source.watchCalls[0]!;
    assert.equal(first.timeoutSeconds, 450, 'random() 0.5 picks the middle of 300–600 s');
    // No event and no bookmark (a server without a watch cache): the watch is not reopened early.
    await r.tick(449_000);
    assert.equal(r.source.watchCalls.length, 1, 'reopened before its own timeout');
    await r.tick(1_000);
    assert.equal(r.source.watchCalls.length, 2);
    assert.equal(r.source.watchCalls[1]!.resourceVersion, first.resourceVersion);
    assert.equal(r.source.listCalls.length, 1);
    // Events do not stretch it: client-go's request timeout counts from the start.
    r.source.create(obj('ns', 'busy'));
    await r.tick(449_000);
    assert.equal(r.source.watchCalls.length, 2);
    await r.tick(1_000);
    assert.equal(r.source.watchCalls.length, 3);
    // A change right after a resume is just a change: the end was the timeout, not a dead stream.
    r.source.create(obj('ns', 'right-after'));
    await r.tick(100);
    assert.deepEqual(r.errors.map(String), []);
    assert.equal(r.informer.indexer.size, 4);
  });

  it('a watch ERROR "Too large resource version" relists with a consistent read; a 429 backs off no less than its Retry-After', async () => {
    const r = rig({}, {}, seedN(2));
    r.informer.run();
    await r.tick();
    const tooLarge = new ApiError(504, 'Timeout: Too large resource version: 9, current: 2', 'Timeout', { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 504, reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] } });
    r.source.failNextWatch(tooLarge);
    r.source.dropWatches();
    await r.tick(2_000);
    await r.tick(1_200);
    assert.deepEqual(r.source.listCalls.map((c) => c.resourceVersion), ['0', undefined]);
    assert.match(String(r.errors.at(-1)), /may have restarted without its history; relisting/);

    const throttled = new ApiError(429, 'slow down', 'TooManyRequests', { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 429, details: { retryAfterSeconds: 20 } });
    await r.tick(10_000);
    r.source.failNextWatch(throttled);
    r.source.dropWatches();
    for (let i = 0; i < 5; i++) await r.tick(5_000);
    const delays = r.probes.flatMap((p) => (p.kind === 'backoff' ? [p.delayMs] : []));
    assert.ok(delays.includes(20_000), `backoffs: ${delays.join(', ')}`);
  });

  it('a Retry-After of 999999 s lengthens the backoff to 30 s, no more', async () => {
    const r = rig({}, {}, seedN(1));
    const absurd = new ApiError(429, 'slow down', 'TooManyRequests', { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 429, details: { retryAfterSeconds: 999_999 } });
    r.source.failNextList(absurd);
    r.informer.run();
    await r.tick();
    const delays = () => r.probes.flatMap((p) => (p.kind === 'backoff' ? [p.delayMs] : []));
    assert.deepEqual(delays(), [30_000]);
    await r.tick(30_000);
    assert.equal(r.informer.hasSynced(), true);
  });

  it('every watch expiring at once: each relist waits client-go\'s backoff, the first too, and one warning says so', async () => {
    const r = rig({}, {}, seedN(1));
    r.source.expireEveryWatch = true;
    // A reflector that relists without waiting never yields to the clock: stop it rather than hang.
    r.source.beforeList = () => void (r.source.listCalls.length > 100 && r.informer.stop());
    r.informer.run();
    await r.tick();
    for (let i = 0; i < 60; i++) await r.tick(1_000);
    const delays = r.probes.flatMap((p) => (p.kind === 'backoff' ? [p.delayMs] : []));
    assert.deepEqual(delays, [1200, 2400, 4800, 9600, 19200, 30000]);
    // The first list, and one after each wait that ended within the minute (the 30 s one has not).
    assert.equal(r.source.listCalls.length, 6);
    const warnings = r.errors.filter((e) => /keeps ending watches with 410 Gone/.test(String(e)));
    assert.equal(warnings.length, 1);
    // A server that recovers: after two minutes without a 410 a new run starts from scratch.
    r.source.expireEveryWatch = false;
    await r.tick(30_000);
    await r.tick(121_000);
    r.source.expireEveryWatch = true;
    r.source.dropWatches(new Error('blip'));
    await r.tick(1_200);
    await r.tick(1_200);
    const after = r.probes.flatMap((p) => (p.kind === 'backoff' ? [p.delayMs] : [])).slice(delays.length);
    // The blip's backoff, then the new run: its first 410 waits the initial 1.2 s again, its second 2.4 s.
    assert.deepEqual(after, [1200, 1200, 2400]);
  });
});

describe('reflector: streaming list (watch-list)', () => {
  it('builds the cache from initial events and the end bookmark, with no list call', async () => {
    const r = rig({ useWatchList: true }, { watchList: 'supported' }, seedN(3));
    r.informer.run();
    await r.tick();
    assert.equal(r.source.listCalls.length, 0);
    const w = r.source.watchCalls[0]!;
    assert.equal(w.sendInitialEvents, true);
    assert.equal(w.resourceVersionMatch, 'NotOlderThan');
    assert.equal(r.informer.hasSynced(), true);
    assert.deepEqual(r.log, ['add* ns/o0 1', 'add* ns/o1 2', 'add* ns/o2 3']);
    r.source.create(obj('ns', 'live'));
    await r.tick();
    assert.equal(r.log.at(-1), 'add ns/live 4');
    assert.equal(r.source.watchCalls.length, 1);
  });

  it('falls back to a plain list when the server rejects sendInitialEvents', async () => {
    const r = rig({ useWatchList: true }, { watchList: 'reject' }, seedN(2));
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.hasSynced(), true);
    assert.equal(r.source.listCalls.length, 1);
    assert.equal(r.informer.indexer.size, 2);
  });

  it('falls back to a plain list when the end bookmark never comes, without duplicate adds', async () => {
    const r = rig({ useWatchList: true, watchListIdleTimeoutMs: 10_000 }, { watchList: 'noEndBookmark' }, seedN(2));
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.hasSynced(), false);
    assert.deepEqual(r.log, []);
    await r.tick(10_000);
    assert.equal(r.informer.hasSynced(), true);
    assert.equal(r.source.listCalls.length, 1);
    assert.deepEqual(r.log, ['add* ns/o0 1', 'add* ns/o1 2']);
    assert.equal(r.source.openWatches, 1);
    assert.equal(r.source.watchCalls.at(-1)!.sendInitialEvents, undefined);
  });
});

describe('reflector: stop', () => {
  it('stop during the initial list aborts it; nothing is delivered afterwards', async () => {
    const r = rig({}, {}, seedN(3));
    r.source.holdLists();
    r.informer.run();
    await r.tick();
    r.informer.stop();
    const probesAtStop = r.probes.length;
    r.source.releaseLists();
    await r.tick(60_000);
    assert.deepEqual(r.log, []);
    assert.equal(r.source.watchCalls.length, 0);
    assert.equal(r.probes.length, probesAtStop);
    assert.equal(r.probes.at(-1)!.kind, 'stopped');
    assert.equal(await r.informer.waitForSync(), false);
  });

  it('stop while watching ends the watch; later writes reach no handler', async () => {
    const r = rig({}, {}, seedN(1));
    r.informer.run();
    await r.tick();
    r.source.create(obj('ns', 'a'));
    r.informer.stop();
    r.source.create(obj('ns', 'b'));
    await r.tick(60_000);
    assert.deepEqual(r.log, ['add* ns/o0 1', 'add ns/a 2']);
    assert.equal(r.informer.indexer.has('ns/b'), false);
    assert.equal(r.source.openWatches, 0);
    assert.equal(r.clock.pendingTimers(), 0);
  });

  it('stop during backoff cancels the retry', async () => {
    const r = rig({}, {}, seedN(1));
    r.source.failNextList(new ApiError(500, 'x'));
    r.informer.run();
    await r.tick();
    r.informer.stop();
    await r.tick(60_000);
    assert.equal(r.source.listCalls.length, 1);
  });
});

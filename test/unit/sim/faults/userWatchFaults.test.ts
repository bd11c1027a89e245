// Watch faults aimed at one user, over HTTP: two clients with the admin token, one of them
// impersonating the checked controller's user, watch the same ConfigMaps. The checked user's
// watch is withheld, delayed, dropped, expired, coalesced or stale; the admin's is not, and after a
// release every event arrives once, in order.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeClock } from '../../../../src/shared/clock.ts';
import { call, openWatch, type WatchStream } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';

const suite = suiteServer();

const CHECKED_USER = 'controller-lab:checked';
const CHECKED = { 'Impersonate-User': CHECKED_USER, 'Impersonate-Group': 'system:masters' };

interface Seen {
  type: string;
  name: string;
  rv: string;
  data?: Record<string, string>;
  line: string;
}

const seen = (w: WatchStream): Seen[] =>
  w.lines.filter((l) => l !== '').map((line) => {
    const e = JSON.parse(line) as { type: string; object: { metadata: { name?: string; resourceVersion?: string }; data?: Record<string, string> } };
    return { type: e.type, name: e.object.metadata?.name ?? '', rv: e.object.metadata?.resourceVersion ?? '', data: e.object.data, line };
  });

const summary = (w: WatchStream): string[] => seen(w).map((e) => `${e.type} ${e.name}${e.data?.v ? `=${e.data.v}` : ''}`);

/** Resolves when the server ends the stream; fails the test after 5 s. */
function ended(w: WatchStream): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((_, fail) => (timer = setTimeout(() => fail(new Error(`the watch did not end: ${w.lines.join('\n')}`)), 5000)));
  return Promise.race([w.ended, late]).finally(() => clearTimeout(timer));
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 50));

async function fault(name: string, body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const r = await call(suite.server, 'POST', `/controller-lab/admin/${name}`, { body });
  assert.equal(r.status, 200, r.body);
  return r.json();
}

async function put(ns: string, name: string, v: string, headers: Record<string, string> = {}): Promise<string> {
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const got = await call(suite.server, 'GET', `${path}/${name}`);
  const body = { metadata: { name }, data: { v } };
  const r = got.status === 404
    ? await call(suite.server, 'POST', path, { body, headers })
    : await call(suite.server, 'PUT', `${path}/${name}`, { body: { ...body, metadata: { name, resourceVersion: got.json().metadata.resourceVersion } }, headers });
  assert.ok(r.status === 200 || r.status === 201, r.body);
  return r.json().metadata.resourceVersion;
}

/** A namespace of its own, and a watch of its ConfigMaps by each client from now. */
async function twoWatchers(ns: string): Promise<{ admin: WatchStream; checked: WatchStream; from: string }> {
  await createNamespace(ns);
  const from = String(suite.cluster.resourceVersion);
  const path = `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${from}`;
  const admin = await openWatch(suite.server, path);
  const checked = await openWatch(suite.server, path, 'application/json', CHECKED);
  return { admin, checked, from };
}

/** A namespace of the test's own (over plain HTTP the sim puts no CA ConfigMap in it). */
async function createNamespace(name: string): Promise<void> {
  assert.equal((await call(suite.server, 'POST', '/api/v1/namespaces', { body: { metadata: { name } } })).status, 201);
}

const clock = (): FakeClock => suite.cluster.clock as FakeClock;

describe('watch faults aimed at one user', () => {
  it('withhold-events holds back only that user’s events; release-events delivers each once, in order', async () => {
    const { admin, checked } = await twoWatchers('withheld');
    await fault('withhold-events', { user: CHECKED_USER });
    for (const n of ['a', 'b', 'c']) await put('withheld', n, '1');
    await admin.waitForLines(3);
    await settle();
    assert.deepEqual(summary(checked), []);
    assert.deepEqual(suite.cluster.faults.state().users, { [CHECKED_USER]: { eventDelayMs: 0, eventsWithheld: true } });
    await fault('release-events', { user: CHECKED_USER });
    await checked.waitForLines(3);
    await put('withheld', 'a', '2');
    await checked.waitForLines(4);
    await settle();
    assert.deepEqual(summary(checked), ['ADDED a=1', 'ADDED b=1', 'ADDED c=1', 'MODIFIED a=2']);
    assert.deepEqual(seen(checked).map((e) => e.line), seen(admin).map((e) => e.line));
    admin.close();
    checked.close();
  });

  it('delay-events delays only that user’s events, on the cluster’s clock', async () => {
    const { admin, checked } = await twoWatchers('delayed');
    await fault('delay-events', { user: CHECKED_USER, ms: '2s' });
    await put('delayed', 'a', '1');
    await admin.waitForLines(1);
    await settle();
    assert.deepEqual(summary(checked), []);
    clock().step(2000);
    await checked.waitForLines(1);
    await fault('delay-events', { user: CHECKED_USER, ms: 0 });
    admin.close();
    checked.close();
  });

  it('drop-watches ends only that user’s watches', async () => {
    const { admin, checked } = await twoWatchers('dropped');
    assert.deepEqual(await fault('drop-watches', { user: CHECKED_USER, resource: 'configmaps' }), { dropped: 1 });
    await ended(checked);
    await put('dropped', 'a', '1');
    await admin.waitForLines(1);
    admin.close();
  });

  it('expire-watches sends that user’s watches the 410 a compacted resume gets, word for word, after what they held', async () => {
    const { admin, checked, from } = await twoWatchers('expired');
    await fault('withhold-events', { user: CHECKED_USER });
    await put('expired', 'a', '1');
    const last = await put('expired', 'b', '1');
    assert.deepEqual(await fault('expire-watches', { user: CHECKED_USER }), { expired: 1 });
    await ended(checked);
    assert.deepEqual(summary(checked), ['ADDED a=1', 'ADDED b=1', 'ERROR ']);
    const expiredLine = seen(checked)[2]!.line;
    await fault('release-events', { user: CHECKED_USER });

    // What a resume from the same resourceVersion gets once the history is compacted past it.
    const now = await put('default', 'later', '1');
    await fault('compact');
    const resumed = await openWatch(suite.server, `/api/v1/namespaces/expired/configmaps?watch=1&resourceVersion=${last}`);
    await ended(resumed);
    assert.equal(resumed.lines.filter((l) => l !== '')[0], expiredLine);
    assert.match(expiredLine, new RegExp(`"too old resource version: ${last} \\(${now}\\)"`));
    assert.equal(JSON.parse(expiredLine).object.code, 410);
    assert.ok(Number(from) < Number(last));
    await admin.waitForLines(2);
    admin.close();
  });

  it('expire-watches with discardWithheld drops what the watch held: the client sees only its relist', async () => {
    const { admin, checked, from } = await twoWatchers('discarded');
    await fault('withhold-events', { user: CHECKED_USER });
    await put('discarded', 'a', '1');
    await put('discarded', 'a', '2');
    await fault('expire-watches', { user: CHECKED_USER, resource: 'cm', discardWithheld: true });
    await ended(checked);
    assert.deepEqual(summary(checked), ['ERROR ']);
    assert.match(seen(checked)[0]!.line, new RegExp(`"too old resource version: ${from} \\(${suite.cluster.resourceVersion}\\)"`));
    await fault('release-events', { user: CHECKED_USER });
    const relist = await call(suite.server, 'GET', '/api/v1/namespaces/discarded/configmaps', { headers: CHECKED });
    assert.deepEqual(relist.json().items.map((i: { data: { v: string } }) => i.data.v), ['2']);
    await admin.waitForLines(2);
    admin.close();
  });

  it('coalesce-events hides a state of one object from that user: only the later event is sent', async () => {
    await createNamespace('coalesced');
    await put('coalesced', 'x', '1');
    const from = String(suite.cluster.resourceVersion);
    const path = `/api/v1/namespaces/coalesced/configmaps?watch=1&resourceVersion=${from}`;
    const admin = await openWatch(suite.server, path);
    const checked = await openWatch(suite.server, path, 'application/json', CHECKED);
    await fault('coalesce-events', { user: CHECKED_USER, resource: 'configmaps', namespace: 'coalesced', name: 'x' });
    await put('coalesced', 'x', '2');
    await put('coalesced', 'other', '1');
    await admin.waitForLines(2);
    await settle();
    assert.deepEqual(summary(checked), ['ADDED other=1']);
    await put('coalesced', 'x', '3');
    await put('coalesced', 'x', '4'); // the count (1) is used up: sent as it comes
    await admin.waitForLines(4);
    await checked.waitForLines(3);
    await settle();
    assert.deepEqual(summary(admin), ['MODIFIED x=2', 'ADDED other=1', 'MODIFIED x=3', 'MODIFIED x=4']);
    assert.deepEqual(summary(checked), ['ADDED other=1', 'MODIFIED x=3', 'MODIFIED x=4']);
    const rvs = seen(checked).map((e) => Number(e.rv));
    assert.deepEqual(rvs, [...rvs].sort((a, b) => a - b));
    admin.close();
    checked.close();
  });

  it('coalesce-events spares the initial state of a watch-list opened after it was armed: the object is there, its next change is held', async () => {
    // controller-runtime starts an informer on a reconcile's first Get of a kind: its watch-list
    // comes after check armed the rule, and an initial ADDED held hid the object from its cache.
    await createNamespace('coalesced-initial');
    await put('coalesced-initial', 'x', '1');
    await fault('coalesce-events', { user: CHECKED_USER, resource: 'configmaps', namespace: 'coalesced-initial', name: 'x' });
    const checked = await openWatch(suite.server, '/api/v1/namespaces/coalesced-initial/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', 'application/json', CHECKED);
    await checked.waitForLines(2);
    assert.deepEqual(summary(checked).filter((l) => !l.startsWith('BOOKMARK')), ['ADDED x=1']);
    await put('coalesced-initial', 'x', '2');
    await put('coalesced-initial', 'x', '3');
    await checked.waitForLines(3);
    await settle();
    assert.deepEqual(summary(checked).filter((l) => !l.startsWith('BOOKMARK')), ['ADDED x=1', 'MODIFIED x=3']);
    checked.close();
  });

  it('coalesce-events: a delete while an event is held is sent as DELETED; a held event nothing replaces goes out after releaseAfter', async () => {
    const { admin, checked } = await twoWatchers('coalesced-delete');
    await put('coalesced-delete', 'x', '1');
    await put('coalesced-delete', 'y', '1');
    await checked.waitForLines(2);
    await fault('coalesce-events', { user: CHECKED_USER, resource: 'configmaps', namespace: 'coalesced-delete', name: 'x' });
    await fault('coalesce-events', { user: CHECKED_USER, resource: 'configmaps', namespace: 'coalesced-delete', name: 'y', releaseAfter: '5s' });
    await put('coalesced-delete', 'x', '2');
    assert.equal((await call(suite.server, 'DELETE', '/api/v1/namespaces/coalesced-delete/configmaps/x')).status, 200);
    await put('coalesced-delete', 'y', '2');
    await checked.waitForLines(3);
    await settle();
    assert.deepEqual(summary(checked), ['ADDED x=1', 'ADDED y=1', 'DELETED x=2']);
    clock().step(5000);
    await checked.waitForLines(4);
    assert.deepEqual(summary(checked).slice(3), ['MODIFIED y=2']);
    assert.deepEqual(suite.cluster.faults.state().coalescing, []);
    await admin.waitForLines(5);
    admin.close();
    checked.close();
  });

  it('stale-view answers that user’s lists as of the old resourceVersion and withholds its watch until the window ends', async () => {
    await createNamespace('stale');
    await put('stale', 'a', '1');
    const old = String(suite.cluster.resourceVersion);
    await put('stale', 'a', '2');
    await put('stale', 'b', '1');
    assert.deepEqual(await fault('stale-view', { user: CHECKED_USER, resourceVersion: old, forMs: '10s' }), { resourceVersion: old });

    const list = async (query: string, headers: Record<string, string> = {}) => {
      const r = await call(suite.server, 'GET', `/api/v1/namespaces/stale/configmaps${query}`, { headers });
      assert.equal(r.status, 200, r.body);
      const body = r.json() as { metadata: { resourceVersion: string }; items: { metadata: { name: string }; data: { v: string } }[] };
      return [body.metadata.resourceVersion, body.items.map((i) => `${i.metadata.name}=${i.data.v}`)];
    };
    const latest = String(suite.cluster.resourceVersion);
    for (const query of ['', '?resourceVersion=0', `?resourceVersion=${old}&resourceVersionMatch=NotOlderThan`]) {
      assert.deepEqual(await list(query, CHECKED), [old, ['a=1']], query);
      assert.deepEqual(await list(query), [latest, ['a=2', 'b=1']], query);
    }

    // Its watch from the list goes on from there, withheld; so does one from the initial state.
    const fromList = await openWatch(suite.server, `/api/v1/namespaces/stale/configmaps?watch=1&resourceVersion=${old}`, 'application/json', CHECKED);
    const fromState = await openWatch(suite.server, '/api/v1/namespaces/stale/configmaps?watch=1', 'application/json', CHECKED);
    await put('stale', 'c', '1');
    await settle();
    assert.deepEqual([summary(fromList), summary(fromState)], [[], []]);
    clock().step(10_000);
    await fromList.waitForLines(3);
    await fromState.waitForLines(4);
    await settle();
    assert.deepEqual(summary(fromList), ['MODIFIED a=2', 'ADDED b=1', 'ADDED c=1']);
    assert.deepEqual(summary(fromState), ['ADDED a=1', 'MODIFIED a=2', 'ADDED b=1', 'ADDED c=1']);
    assert.deepEqual(await list('', CHECKED), [String(suite.cluster.resourceVersion), ['a=2', 'b=1', 'c=1']]);
    fromList.close();
    fromState.close();
  });

  it('stale-view serves a watch-list of that user the old state and its end at once, and withholds what came after until the window ends', async () => {
    await createNamespace('stalelist');
    await put('stalelist', 'a', '1');
    const old = String(suite.cluster.resourceVersion);
    await put('stalelist', 'a', '2');
    await fault('stale-view', { user: CHECKED_USER, resourceVersion: old, forMs: '10s' });
    const watchList = await openWatch(suite.server, '/api/v1/namespaces/stalelist/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', 'application/json', CHECKED);
    await watchList.waitForLines(2);
    await settle();
    assert.deepEqual(summary(watchList), ['ADDED a=1', 'BOOKMARK ']);
    assert.equal(seen(watchList)[1]!.rv, old);
    clock().step(10_000);
    await watchList.waitForLines(3);
    assert.deepEqual(summary(watchList), ['ADDED a=1', 'BOOKMARK ', 'MODIFIED a=2']);
    watchList.close();

    // Nothing changed there since the old resourceVersion: the old state and its end come all the same.
    await createNamespace('stalequiet');
    await fault('stale-view', { user: CHECKED_USER, resourceVersion: String(suite.cluster.resourceVersion), forMs: '10s' });
    const quiet = await openWatch(suite.server, '/api/v1/namespaces/stalequiet/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', 'application/json', CHECKED);
    await quiet.waitForLines(1);
    assert.deepEqual(summary(quiet), ['BOOKMARK ']);
    quiet.close();
    await fault('reset');
  });

  it('stale-view at a resourceVersion compacted away answers that user’s lists 410', async () => {
    const old = String(suite.cluster.resourceVersion - 1);
    await fault('compact');
    await fault('stale-view', { user: CHECKED_USER, resourceVersion: old, forMs: '1s' });
    const r = await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps', { headers: CHECKED });
    assert.equal(r.status, 410, r.body);
    assert.equal(r.json().reason, 'Expired');
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    await fault('reset');
    assert.deepEqual(suite.cluster.faults.state().staleViews, []);
  });

  it('watchedViewsOf counts what that user’s watches’ scopes hold, and sums their resourceVersions', async () => {
    const { admin, checked } = await twoWatchers('viewed');
    const a = await put('viewed', 'a', '1');
    const b = await put('viewed', 'b', '1');
    await createNamespace('elsewhere');
    await put('elsewhere', 'c', '1');
    assert.deepEqual(suite.cluster.watchedViewsOf(CHECKED_USER).get('configmaps'), { objects: 2, rvSum: Number(a) + Number(b) });
    const b2 = await put('viewed', 'b', '2');
    assert.deepEqual(suite.cluster.watchedViewsOf(CHECKED_USER).get('configmaps'), { objects: 2, rvSum: Number(a) + Number(b2) });
    checked.close();
    await ended(checked).catch(() => {});
    await settle();
    assert.equal(suite.cluster.watchedViewsOf(CHECKED_USER).size, 0);
    admin.close();
  });

  it('watchesOf lists that user’s open watches, what each has sent and what it has not sent yet', async () => {
    const { admin, checked } = await twoWatchers('pending');
    await fault('withhold-events', { user: CHECKED_USER });
    await put('pending', 'a', '1');
    await put('pending', 'b', '1');
    await admin.waitForLines(2);
    const watches = suite.cluster.watchesOf(CHECKED_USER);
    assert.deepEqual(watches.map(({ resource, namespace, undelivered }) => ({ resource, namespace, undelivered })), [{ resource: 'configmaps', namespace: 'pending', undelivered: 2 }]);
    assert.equal(watches[0]?.sent, 0);
    await fault('release-events', { user: CHECKED_USER });
    await checked.waitForLines(2);
    assert.equal(suite.cluster.watchesOf(CHECKED_USER)[0]?.undelivered, 0);
    assert.equal(suite.cluster.watchesOf(CHECKED_USER)[0]?.sent, 2);
    checked.close();
    await ended(checked).catch(() => {});
    await settle();
    assert.deepEqual(suite.cluster.watchesOf(CHECKED_USER), []);
    admin.close();
  });

  it('every fault applied is in the history, with the resourceVersion and time it was applied', () => {
    const history = suite.cluster.faults.history();
    assert.ok(history.length >= 10);
    const stale = history.find((h) => h.name === 'stale-view');
    assert.equal(stale?.args.user, CHECKED_USER);
    assert.equal(typeof stale?.resourceVersion, 'number');
    assert.equal(typeof stale?.at, 'number');
    const rvs = history.map((h) => h.resourceVersion);
    assert.deepEqual(rvs, [...rvs].sort((a, b) => a - b));
  });
});

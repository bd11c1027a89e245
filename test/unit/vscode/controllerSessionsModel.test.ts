import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { FakeSession, record, SHAPE } from './support/fakeControllerSession.ts';
import { ControllerSessionsModel, type ControllerChange } from '../../../src/vscode/controllers/controllerSessionsModel.ts';
import { ControllerTreeRows, MAX_QUEUE_ROWS } from '../../../src/vscode/controllers/controllerTreeRows.ts';
import { controllerNodeIds, type ControllerTreeNode } from '../../../src/vscode/tree/controllerTreeNodes.ts';
import { publishToTimeline } from '../../../src/vscode/controllers/controllerTimeline.ts';
import type { SessionLike } from '../../../src/vscode/controllers/sessionLike.ts';
import { TimelineFeed } from '../../../src/vscode/model/timelineFeed.ts';


function setup() {
  let now = 5_000;
  const model = new ControllerSessionsModel(() => now);
  const tree = new ControllerTreeRows(model);
  const changes: ControllerChange[] = [];
  model.onDidChange((c) => changes.push(c));
  const session = new FakeSession();
  const feed = new TimelineFeed(100);
  const id = model.track(session as unknown as SessionLike, '/ws/examples/replicaset-controller/controller.ts');
  publishToTimeline(session as unknown as SessionLike, feed, () => model.entries.get(id)?.name ?? id);
  return { model, tree, feed, session, id, changes, setNow: (t: number) => (now = t) };
}

const labelOf = (tree: ControllerTreeRows, n: ControllerTreeNode) => tree.item(n).label;
const descOf = (tree: ControllerTreeRows, n: ControllerTreeNode) => tree.item(n).description ?? '';

describe('controller sessions model (tree)', () => {
  it('shows nothing until a controller runs, then Controllers → controller → Informers / Workqueue', () => {
    const empty = new ControllerTreeRows(new ControllerSessionsModel());
    assert.equal(empty.root(), undefined);
    const { tree, session } = setup();
    const root = tree.root();
    assert.ok(root);
    assert.equal(labelOf(tree, root), 'Controllers');
    const [ctl] = tree.children(root);
    assert.ok(ctl);
    assert.equal(labelOf(tree, ctl), 'controller', 'named after the file until the controller is loaded');
    assert.match(descOf(tree, ctl), /^starting/);
    session.send('ready', { controller: SHAPE });
    assert.equal(labelOf(tree, ctl), 'replicaset-controller');
    assert.match(descOf(tree, ctl), /^syncing · 0 reconciles/);
    assert.deepEqual(tree.children(ctl).map((n) => labelOf(tree, n)), ['Informers', 'Workqueue']);
    assert.equal(tree.children(root)[0], ctl, 'the same node instance on every call (stable ids)');
    assert.equal(ctl.id, controllerNodeIds.controller('s1'));
    for (const child of tree.children(ctl)) assert.equal(tree.parent(child), ctl);
    assert.equal(tree.parent(ctl), root);
  });

  it('lists the informers from their probes: synced, last RV, events, relists, 410s', () => {
    const { tree, session } = setup();
    session.send('ready', { controller: SHAPE });
    session.send('probe', { probe: { at: 1, informer: 'replicasets.apps', kind: 'listEnd', resourceVersion: '5', items: 2, durationMs: 3 } });
    session.send('probe', { probe: { at: 2, informer: 'replicasets.apps', kind: 'synced', resourceVersion: '5', items: 2 } });
    session.send('probe', { probe: { at: 3, informer: 'replicasets.apps', kind: 'event', type: 'MODIFIED', key: 'default/web', resourceVersion: '9' } });
    session.send('probe', { probe: { at: 4, informer: 'replicasets.apps', kind: 'expired', via: 'event', resourceVersion: '9' } });
    session.send('probe', { probe: { at: 5, informer: 'replicasets.apps', kind: 'relist', cause: '410' } });
    session.send('probe', { probe: { at: 6, informer: 'pods', kind: 'listStart', resourceVersion: undefined } });
    const ctl = tree.children(tree.root()!)[0]!;
    const informers = tree.children(ctl)[0]!;
    assert.equal(descOf(tree, informers), '1/2 synced');
    const rows = tree.children(informers);
    assert.deepEqual(rows.map((n) => labelOf(tree, n)), ['replicasets.apps', 'pods']);
    assert.equal(descOf(tree, rows[0]!), 'synced · rv 9 · 1 event · ⟳ 1 · 410 × 1');
    assert.equal(descOf(tree, rows[1]!), 'syncing · 0 events');
    assert.equal(tree.parent(rows[0]!), informers);
  });

  it('shows the workqueue per key: queued, processing, waiting with retries and backoff remaining', () => {
    const { tree, session, setNow } = setup();
    session.send('ready', { controller: SHAPE });
    session.send('synced', {});
    session.send('queue', {
      snapshot: {
        at: 5000,
        depth: 1,
        processing: 1,
        waiting: 1,
        keys: [
          { key: 'default/a', state: 'queued', retries: 0 },
          { key: 'default/b', state: 'processing', retries: 1, dirty: true },
          { key: 'default/c', state: 'waiting', retries: 3, readyAt: 7_500, backoffMs: 4000, reason: 'backoff' },
        ],
      },
    });
    const ctl = tree.children(tree.root()!)[0]!;
    const queue = tree.children(ctl)[1]!;
    assert.equal(descOf(tree, queue), 'depth 1 · processing 1 · waiting 1');
    const keys = tree.children(queue);
    assert.deepEqual(keys.map((k) => labelOf(tree, k)), ['default/a', 'default/b', 'default/c']);
    assert.equal(descOf(tree, keys[0]!), 'queued');
    assert.equal(descOf(tree, keys[1]!), 'processing · 1 retry · re-added');
    assert.equal(descOf(tree, keys[2]!), 'waiting · 3 retries · backoff · 2.5s left');
    setNow(7_000);
    assert.equal(descOf(tree, keys[2]!), 'waiting · 3 retries · backoff · 500ms left');
    assert.equal(tree.item(keys[2]!).contextValue, 'controllerQueueKey.waiting');
    assert.match(descOf(tree, ctl), /queue 2$/);
    session.send('queue', { snapshot: { at: 6000, depth: 0, processing: 0, waiting: 0, keys: [] } });
    assert.deepEqual(tree.children(queue).map((k) => labelOf(tree, k)), ['Empty']);
  });

  it('follows the state: running, reconciling, idle, stopped in debugger, exited — with reconcile and error counts', () => {
    const { model, tree, feed, session, id, changes } = setup();
    session.send('ready', { controller: SHAPE });
    session.send('synced', {});
    const ctl = tree.children(tree.root()!)[0]!;
    assert.match(descOf(tree, ctl), /^running · 0 reconciles$/);
    const r = record();
    session.send('reconcileStart', { record: r });
    assert.match(descOf(tree, ctl), /^reconciling/);
    model.setPaused(id, true);
    assert.match(descOf(tree, ctl), /^stopped in debugger/);
    model.setPaused(id, false);
    r.durationMs = 20;
    r.outcome = { kind: 'error', error: { name: 'Error', message: 'boom', terminal: false } };
    r.decision = { action: 'addRateLimited', reason: 'error' };
    session.send('reconcileEnd', { record: r });
    session.send('idle', { idle: true });
    assert.equal(descOf(tree, ctl), 'idle · 1 reconcile · 1 error');
    assert.ok(changes.some((c) => c.kind === 'controller'));
    assert.deepEqual(feed.spans().map((s) => `${s.id} ${s.outcome}`), ['r1 error'], 'the end replaces the start');
    session.send('exit', { code: 0, signal: null });
    assert.match(descOf(tree, ctl), /^exited \(code 0\)/);
    assert.equal(descOf(tree, tree.root()!), '0 running · 1 finished');
  });

  it('folds an exited controller into one Finished row, never showing work in progress after the exit', () => {
    const { model, tree, session } = setup();
    session.send('ready', { controller: SHAPE });
    session.send('synced', {});
    session.send('reconcileStart', { record: record() });
    session.send('queue', { snapshot: { at: 5000, depth: 0, processing: 1, waiting: 0, keys: [{ key: 'default/web', state: 'processing', retries: 0 }] } });
    session.send('exit', { code: 4, signal: null });
    // The host's last queue snapshot may come after its exit.
    session.send('queue', { snapshot: { at: 5001, depth: 0, processing: 1, waiting: 0, keys: [{ key: 'default/web', state: 'processing', retries: 0 }] } });
    const root = tree.root()!;
    assert.equal(descOf(tree, root), '0 running · 1 finished');
    const rows = tree.children(root);
    assert.deepEqual(rows.map((n) => labelOf(tree, n)), ['Finished'], 'no exited controller among the live ones');
    const finished = tree.children(rows[0]!);
    assert.deepEqual(finished.map((n) => labelOf(tree, n)), ['replicaset-controller']);
    assert.equal(tree.parent(finished[0]!), rows[0]);
    assert.equal(descOf(tree, finished[0]!), 'failed (code 4) · 0 reconciles');
    assert.deepEqual(tree.children(finished[0]!), [], 'no Workqueue row left to read "processing 1"');
    assert.equal(tree.item(finished[0]!).collapsible, 'none');
    const everything = (n: ControllerTreeNode): string[] => [`${labelOf(tree, n)} ${descOf(tree, n)}`, ...tree.children(n).flatMap(everything)];
    assert.ok(!everything(root).some((t) => /processing [1-9]|reconciling/.test(t)), everything(root).join('\n'));

    const next = new FakeSession();
    model.track(next as unknown as SessionLike, 'again.ts');
    assert.deepEqual(tree.children(root).map((n) => labelOf(tree, n)), ['again', 'Finished'], 'a new run is listed first, the finished fold last');
  });

  it('lists at most MAX_QUEUE_ROWS keys of a long queue, then how many more', () => {
    const { tree, session } = setup();
    const keys = Array.from({ length: MAX_QUEUE_ROWS + 7 }, (_, i) => ({ key: `default/k${i}`, state: 'queued' as const, retries: 0 }));
    session.send('queue', { snapshot: { at: 1, depth: keys.length, processing: 0, waiting: 0, keys } });
    const queue = tree.children(tree.children(tree.root()!)[0]!)[1]!;
    const rows = tree.children(queue);
    assert.equal(rows.length, MAX_QUEUE_ROWS + 1);
    assert.equal(labelOf(tree, rows.at(-1)!), '… 7 more keys');
    assert.equal(tree.parent(rows.at(-1)!), queue);
  });

  it('keeps only the last few ended sessions', () => {
    const model = new ControllerSessionsModel(() => 0);
    const sessions = Array.from({ length: 5 }, () => new FakeSession());
    for (const s of sessions) model.track(s as unknown as SessionLike, 'c.ts');
    const tree = new ControllerTreeRows(model);
    for (const row of tree.children(tree.root()!)) tree.children(row);
    assert.ok(tree.lookup(controllerNodeIds.informers('s1')), 'the rows of a live session are known');
    for (const s of sessions) s.send('exit', { code: 1, signal: null });
    assert.deepEqual([...model.entries.keys()], ['s3', 's4', 's5']);
    assert.equal(tree.lookup(controllerNodeIds.controller('s1')), undefined, 'a session no longer listed takes its rows with it');
    assert.equal(tree.lookup(controllerNodeIds.informers('s2')), undefined);
  });
});

import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { RuntimeEvents } from '../../../src/runtime/controllerSession.ts';
import type { ReconcileRecord } from '../../../src/runtime/records.ts';
import { TypedEmitter } from '../../../src/runtime/typedEmitter.ts';
import type { ControllerShape } from '../../../src/runtime/protocol.ts';
import { ControllerSessionsModel, MAX_QUEUE_ROWS, controllerNodeIds, probeTimelineEvent, reconcileSpan } from '../../../src/vscode/controllers/controllerSessionsModel.ts';
import type { ControllerChange, ControllerTreeNode, SessionLike } from '../../../src/vscode/controllers/controllerSessionsModel.ts';
import { findLinkedEvent, isSpansParams, spanLaneKey, triggerTarget } from '../../../src/shared/protocol/reconcileSpans.ts';
import type { TimelineEvent } from '../../../src/shared/protocol/timeline.ts';
import { TimelineFeed } from '../../../src/vscode/timeline/timelineFeed.ts';

class FakeSession extends TypedEmitter<RuntimeEvents> {
  controller: ControllerShape | undefined;
  send<K extends keyof RuntimeEvents>(event: K, payload: RuntimeEvents[K]): void {
    this.emit(event, payload);
  }
}

const SHAPE: ControllerShape = { name: 'replicaset-controller', forKind: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, owns: [{ apiVersion: 'v1', kind: 'Pod' }], watches: [], workers: 1 };

function record(partial: Partial<ReconcileRecord> = {}): ReconcileRecord {
  return {
    seq: 1,
    reconcileId: 'r1',
    controller: 'replicaset-controller',
    worker: 0,
    forKind: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
    key: 'default/web',
    request: { namespace: 'default', name: 'web' },
    trigger: [{ type: 'ADDED', kind: 'ReplicaSet', apiVersion: 'apps/v1', key: 'default/web', resourceVersion: '10', via: 'for', at: 1000 }],
    cacheResourceVersion: '10',
    cacheSeq: 3,
    startedAt: 1000,
    writes: [],
    logs: [],
    ...partial,
  };
}

function setup() {
  let now = 5_000;
  const model = new ControllerSessionsModel(() => now);
  const changes: ControllerChange[] = [];
  model.onDidChange((c) => changes.push(c));
  const session = new FakeSession();
  const id = model.track(session as unknown as SessionLike, '/ws/examples/replicaset-controller/controller.ts');
  return { model, session, id, changes, setNow: (t: number) => (now = t) };
}

const labelOf = (model: ControllerSessionsModel, n: ControllerTreeNode) => model.item(n).label;
const descOf = (model: ControllerSessionsModel, n: ControllerTreeNode) => model.item(n).description ?? '';

describe('controller sessions model (tree)', () => {
  it('shows nothing until a controller runs, then Controllers → controller → Informers / Workqueue', () => {
    const empty = new ControllerSessionsModel();
    assert.equal(empty.root(), undefined);
    const { model, session } = setup();
    const root = model.root();
    assert.ok(root);
    assert.equal(labelOf(model, root), 'Controllers');
    const [ctl] = model.children(root);
    assert.ok(ctl);
    assert.equal(labelOf(model, ctl), 'controller', 'named after the file until the controller is loaded');
    assert.match(descOf(model, ctl), /^starting/);
    session.send('ready', { controller: SHAPE });
    assert.equal(labelOf(model, ctl), 'replicaset-controller');
    assert.match(descOf(model, ctl), /^syncing · 0 reconciles/);
    assert.deepEqual(model.children(ctl).map((n) => labelOf(model, n)), ['Informers', 'Workqueue']);
    assert.equal(model.children(root)[0], ctl, 'the same node instance on every call (stable ids)');
    assert.equal(ctl.id, controllerNodeIds.controller('s1'));
    for (const child of model.children(ctl)) assert.equal(model.parent(child), ctl);
    assert.equal(model.parent(ctl), root);
  });

  it('lists the informers from their probes: synced, last RV, events, relists, 410s', () => {
    const { model, session } = setup();
    session.send('ready', { controller: SHAPE });
    session.send('probe', { probe: { at: 1, informer: 'replicasets.apps', kind: 'listEnd', resourceVersion: '5', items: 2, durationMs: 3 } });
    session.send('probe', { probe: { at: 2, informer: 'replicasets.apps', kind: 'synced', resourceVersion: '5', items: 2 } });
    session.send('probe', { probe: { at: 3, informer: 'replicasets.apps', kind: 'event', type: 'MODIFIED', key: 'default/web', resourceVersion: '9' } });
    session.send('probe', { probe: { at: 4, informer: 'replicasets.apps', kind: 'expired', via: 'event', resourceVersion: '9' } });
    session.send('probe', { probe: { at: 5, informer: 'replicasets.apps', kind: 'relist', cause: '410' } });
    session.send('probe', { probe: { at: 6, informer: 'pods', kind: 'listStart', resourceVersion: undefined } });
    const ctl = model.children(model.root()!)[0]!;
    const informers = model.children(ctl)[0]!;
    assert.equal(descOf(model, informers), '1/2 synced');
    const rows = model.children(informers);
    assert.deepEqual(rows.map((n) => labelOf(model, n)), ['replicasets.apps', 'pods']);
    assert.equal(descOf(model, rows[0]!), 'synced · rv 9 · 1 event · ⟳ 1 · 410 × 1');
    assert.equal(descOf(model, rows[1]!), 'syncing · 0 events');
    assert.equal(model.parent(rows[0]!), informers);
  });

  it('shows the workqueue per key: queued, processing, waiting with retries and backoff remaining', () => {
    const { model, session, setNow } = setup();
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
    const ctl = model.children(model.root()!)[0]!;
    const queue = model.children(ctl)[1]!;
    assert.equal(descOf(model, queue), 'depth 1 · processing 1 · waiting 1');
    const keys = model.children(queue);
    assert.deepEqual(keys.map((k) => labelOf(model, k)), ['default/a', 'default/b', 'default/c']);
    assert.equal(descOf(model, keys[0]!), 'queued');
    assert.equal(descOf(model, keys[1]!), 'processing · 1 retry · re-added');
    assert.equal(descOf(model, keys[2]!), 'waiting · 3 retries · backoff · 2.5s left');
    setNow(7_000);
    assert.equal(descOf(model, keys[2]!), 'waiting · 3 retries · backoff · 500ms left');
    assert.equal(model.item(keys[2]!).contextValue, 'controllerQueueKey.waiting');
    assert.match(descOf(model, ctl), /queue 2$/);
    session.send('queue', { snapshot: { at: 6000, depth: 0, processing: 0, waiting: 0, keys: [] } });
    assert.deepEqual(model.children(queue).map((k) => labelOf(model, k)), ['Empty']);
  });

  it('follows the state: running, reconciling, idle, stopped in debugger, exited — with reconcile and error counts', () => {
    const { model, session, id, changes } = setup();
    session.send('ready', { controller: SHAPE });
    session.send('synced', {});
    const ctl = model.children(model.root()!)[0]!;
    assert.match(descOf(model, ctl), /^running · 0 reconciles$/);
    const r = record();
    session.send('reconcileStart', { record: r });
    assert.match(descOf(model, ctl), /^reconciling/);
    model.setPaused(id, true);
    assert.match(descOf(model, ctl), /^stopped in debugger/);
    model.setPaused(id, false);
    r.durationMs = 20;
    r.outcome = { kind: 'error', error: { name: 'Error', message: 'boom', terminal: false } };
    r.decision = { action: 'addRateLimited', reason: 'error' };
    session.send('reconcileEnd', { record: r });
    session.send('idle', { idle: true });
    assert.equal(descOf(model, ctl), 'idle · 1 reconcile · 1 error');
    assert.ok(changes.some((c) => c.kind === 'span' && c.span.outcome === 'error'));
    const feed = new TimelineFeed(100);
    for (const c of changes) if (c.kind === 'span') feed.putSpan(c.span);
    assert.deepEqual(feed.spans().map((s) => `${s.id} ${s.outcome}`), ['r1 error'], 'the end replaces the start');
    session.send('exit', { code: 0, signal: null });
    assert.match(descOf(model, ctl), /^exited \(code 0\)/);
    assert.equal(descOf(model, model.root()!), '0 running · 1 finished');
  });

  it('folds an exited controller into one Finished row, never showing work in progress after the exit', () => {
    const { model, session } = setup();
    session.send('ready', { controller: SHAPE });
    session.send('synced', {});
    session.send('reconcileStart', { record: record() });
    session.send('queue', { snapshot: { at: 5000, depth: 0, processing: 1, waiting: 0, keys: [{ key: 'default/web', state: 'processing', retries: 0 }] } });
    session.send('exit', { code: 4, signal: null });
    // The host's last queue snapshot may come after its exit.
    session.send('queue', { snapshot: { at: 5001, depth: 0, processing: 1, waiting: 0, keys: [{ key: 'default/web', state: 'processing', retries: 0 }] } });
    const root = model.root()!;
    assert.equal(descOf(model, root), '0 running · 1 finished');
    const rows = model.children(root);
    assert.deepEqual(rows.map((n) => labelOf(model, n)), ['Finished'], 'no exited controller among the live ones');
    const finished = model.children(rows[0]!);
    assert.deepEqual(finished.map((n) => labelOf(model, n)), ['replicaset-controller']);
    assert.equal(model.parent(finished[0]!), rows[0]);
    assert.equal(descOf(model, finished[0]!), 'failed (code 4) · 0 reconciles');
    assert.deepEqual(model.children(finished[0]!), [], 'no Workqueue row left to read "processing 1"');
    assert.equal(model.item(finished[0]!).collapsible, 'none');
    const everything = (n: ControllerTreeNode): string[] => [`${labelOf(model, n)} ${descOf(model, n)}`, ...model.children(n).flatMap(everything)];
    assert.ok(!everything(root).some((t) => /processing [1-9]|reconciling/.test(t)), everything(root).join('\n'));

    const next = new FakeSession();
    model.track(next as unknown as SessionLike, 'again.ts');
    assert.deepEqual(model.children(root).map((n) => labelOf(model, n)), ['again', 'Finished'], 'a new run is listed first, the finished fold last');
  });

  it('lists at most MAX_QUEUE_ROWS keys of a long queue, then how many more', () => {
    const { model, session } = setup();
    const keys = Array.from({ length: MAX_QUEUE_ROWS + 7 }, (_, i) => ({ key: `default/k${i}`, state: 'queued' as const, retries: 0 }));
    session.send('queue', { snapshot: { at: 1, depth: keys.length, processing: 0, waiting: 0, keys } });
    const queue = model.children(model.children(model.root()!)[0]!)[1]!;
    const rows = model.children(queue);
    assert.equal(rows.length, MAX_QUEUE_ROWS + 1);
    assert.equal(labelOf(model, rows.at(-1)!), '… 7 more keys');
    assert.equal(model.parent(rows.at(-1)!), queue);
  });

  it('keeps only the last few ended sessions', () => {
    const model = new ControllerSessionsModel(() => 0);
    const sessions = Array.from({ length: 5 }, () => new FakeSession());
    for (const s of sessions) model.track(s as unknown as SessionLike, 'c.ts');
    for (const s of sessions) s.send('exit', { code: 1, signal: null });
    assert.deepEqual([...model.entries.keys()], ['s3', 's4', 's5']);
  });
});

describe('reconcile spans (timeline)', () => {
  it('turns a record into a span with its triggers and writes (RVs), outcome and requeue decision', () => {
    const running = reconcileSpan(record());
    assert.equal(running.outcome, 'running');
    assert.equal(running.endedAt, undefined);
    const done = reconcileSpan(
      record({
        durationMs: 35,
        outcome: { kind: 'success', result: { requeueAfter: 2000 } },
        decision: { action: 'addAfter', delayMs: 2000 },
        writes: [
          { verb: 'create', apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-x1', resourceVersion: '11', at: 1010, durationMs: 4 },
          { verb: 'updateStatus', apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'default', name: 'web', error: { code: 409, reason: 'Conflict', message: 'stale' }, at: 1020, durationMs: 2 },
        ],
      }),
    );
    assert.equal(done.outcome, 'success');
    assert.equal(done.endedAt, 1035);
    assert.equal(done.detail, 'requeued after 2.0s');
    assert.deepEqual(done.triggers.map((t) => `${t.type} ${t.key} rv ${t.resourceVersion}`), ['ADDED default/web rv 10']);
    assert.deepEqual(done.writes.map((w) => `${w.verb} ${w.namespace}/${w.name} ${w.resourceVersion ?? w.error}`), ['create default/web-x1 11', 'updateStatus default/web 409 Conflict stale']);
    assert.equal(spanLaneKey(done), 'reconcile:replicaset-controller:default/web');
    assert.ok(isSpansParams({ spans: [done, running] }));
    assert.ok(!isSpansParams({ spans: [{ id: 'x' }] }));
  });

  it('puts what the controller\'s own informers see on the timeline, so spans link without a lab informer', () => {
    const delta = probeTimelineEvent('rs', { at: 7, informer: 'pods@default', kind: 'delta', type: 'Replaced', key: 'default/web-x1', resourceVersion: '11' });
    assert.deepEqual(delta, { at: 7, informer: 'controller:rs/pods@default', resource: 'pods', cluster: 'rs cache', namespace: 'default', name: 'web-x1', type: 'ADDED', resourceVersion: '11' });
    assert.equal(probeTimelineEvent('rs', { at: 8, informer: 'nodes', kind: 'delta', type: 'Updated', key: 'n1', resourceVersion: '3' })?.type, 'MODIFIED');
    assert.equal(probeTimelineEvent('rs', { at: 8, informer: 'nodes', kind: 'delta', type: 'Updated', key: 'n1', resourceVersion: '3' })?.namespace, '');
    assert.equal(probeTimelineEvent('rs', { at: 9, informer: 'pods', kind: 'delta', type: 'Deleted', key: 'default/a', resourceVersion: '4' })?.type, 'DELETED');
    assert.equal(probeTimelineEvent('rs', { at: 9, informer: 'pods', kind: 'delta', type: 'Sync', key: 'default/a', resourceVersion: '4' }), undefined);
    assert.equal(probeTimelineEvent('rs', { at: 9, informer: 'pods', kind: 'expired', via: 'http', resourceVersion: '2' })?.type, 'EXPIRED');
    assert.equal(probeTimelineEvent('rs', { at: 9, informer: 'pods', kind: 'relist', cause: '410' })?.name, '');
    assert.equal(probeTimelineEvent('rs', { at: 9, informer: 'pods', kind: 'event', type: 'MODIFIED', key: 'default/a', resourceVersion: '4' }), undefined, 'watch events arrive as deltas too: once is enough');
  });

  it('links triggers and writes to timeline events by object and resourceVersion', () => {
    const ev = (seq: number, name: string, rv: string, namespace = 'default'): TimelineEvent => ({ seq, at: seq, informer: 'pods', resource: 'pods', namespace, name, type: 'ADDED', resourceVersion: rv });
    const candidates = [ev(1, 'web', '10', 'other'), ev(2, 'web', '10'), ev(3, 'web-x1', '11')];
    const span = reconcileSpan(record({ writes: [{ verb: 'create', apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-x1', resourceVersion: '11', at: 1, durationMs: 1 }] }));
    assert.equal(findLinkedEvent(triggerTarget(span.triggers[0]!), candidates)?.seq, 2);
    assert.equal(findLinkedEvent(span.writes[0]!, candidates)?.seq, 3);
    assert.equal(findLinkedEvent({ namespace: 'default', name: 'web-x1' }, candidates), undefined, 'no RV, no link');
    assert.equal(findLinkedEvent({ namespace: 'default', name: 'web-x1', resourceVersion: '12' }, candidates), undefined);
  });
});

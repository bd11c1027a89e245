import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { FakeSession, record, SHAPE } from './support/fakeControllerSession.ts';
import { publishToTimeline } from '../../../src/vscode/controllers/controllerTimeline.ts';
import { probeTimelineEvent } from '../../../src/vscode/controllers/probeTimelineEvent.ts';
import { InformerMarkers } from '../../../src/vscode/model/informerMarkers.ts';
import { reconcileSpan } from '../../../src/vscode/controllers/reconcileSpan.ts';
import type { SessionLike } from '../../../src/vscode/controllers/sessionLike.ts';
import { findLinkedEvent, isSpansParams, spanLaneKey, triggerTarget } from '../../../src/shared/protocol/reconcileSpans.ts';
import type { TimelineEvent } from '../../../src/shared/protocol/timeline.ts';
import { TimelineFeed } from '../../../src/vscode/model/timelineFeed.ts';


describe("a controller session's timeline", () => {
  it('publishes each reconcile as a span (its end replacing its start) and its informers\' deltas as events of its cache', () => {
    const feed = new TimelineFeed(100);
    const session = new FakeSession();
    session.controller = SHAPE;
    let name = 'replicaset-controller';
    const stop = publishToTimeline(session as unknown as SessionLike, feed, () => name);
    const r = record();
    session.send('reconcileStart', { record: r });
    assert.deepEqual(feed.spans().map((s) => `${s.id} ${s.outcome}`), ['r1 running']);
    session.send('reconcileEnd', { record: { ...r, durationMs: 5, outcome: { kind: 'success', result: {} }, decision: { action: 'forget' } } });
    assert.deepEqual(feed.spans().map((s) => `${s.id} ${s.outcome} ${s.detail}`), ['r1 success done']);
    session.send('probe', { probe: { at: 7, informer: 'pods', kind: 'delta', type: 'Added', key: 'default/web-x1', resourceVersion: '11' } });
    name = 'replicaset-controller, other';
    session.send('probe', { probe: { at: 8, informer: 'pods', kind: 'delta', type: 'Sync', key: 'default/web-x1', resourceVersion: '11' } });
    session.send('probe', { probe: { at: 8, informer: 'pods', kind: 'listEnd', resourceVersion: '10', items: 1, durationMs: 1 } });
    session.send('probe', { probe: { at: 9, informer: 'pods', kind: 'relist', cause: '410' } });
    session.send('probe', { probe: { at: 9, informer: 'pods', kind: 'listEnd', resourceVersion: '12', items: 1, durationMs: 1 } });
    const events = feed.events.all();
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.kind ?? '-'} ${e.cluster} ${e.namespace}/${e.name}`),
      ['ADDED Pod replicaset-controller cache default/web-x1', 'RELIST Pod replicaset-controller, other cache /'],
      'a resync is not an event; the kind comes from the controller\'s shape, the lane from its current name',
    );
    stop();
    session.send('reconcileStart', { record: record({ reconcileId: 'r2', seq: 2 }) });
    assert.equal(feed.spans().length, 1, 'nothing published once stopped');
  });

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
    const markers = new InformerMarkers();
    const delta = probeTimelineEvent('rs', { at: 7, informer: 'pods@default', kind: 'delta', type: 'Replaced', key: 'default/web-x1', resourceVersion: '11' }, markers);
    assert.deepEqual(delta, { at: 7, informer: 'controller:rs/pods@default', resource: 'pods', cluster: 'rs cache', namespace: 'default', name: 'web-x1', type: 'ADDED', resourceVersion: '11' });
    assert.equal(probeTimelineEvent('rs', { at: 8, informer: 'nodes', kind: 'delta', type: 'Updated', key: 'n1', resourceVersion: '3' }, markers)?.type, 'MODIFIED');
    assert.equal(probeTimelineEvent('rs', { at: 8, informer: 'nodes', kind: 'delta', type: 'Updated', key: 'n1', resourceVersion: '3' }, markers)?.namespace, '');
    assert.equal(probeTimelineEvent('rs', { at: 9, informer: 'pods', kind: 'delta', type: 'Deleted', key: 'default/a', resourceVersion: '4' }, markers)?.type, 'DELETED');
    assert.equal(probeTimelineEvent('rs', { at: 9, informer: 'pods', kind: 'delta', type: 'Sync', key: 'default/a', resourceVersion: '4' }, markers), undefined);
    assert.equal(probeTimelineEvent('rs', { at: 9, informer: 'pods', kind: 'expired', via: 'http', resourceVersion: '2' }, markers)?.type, 'EXPIRED');
    assert.equal(probeTimelineEvent('rs', { at: 9, informer: 'pods', kind: 'event', type: 'MODIFIED', key: 'default/a', resourceVersion: '4' }, markers), undefined, 'watch events arrive as deltas too: once is enough');
    // A Go program reports each delivered event once, as an event probe: those are its cache's events.
    assert.deepEqual(probeTimelineEvent('mirror', { at: 9, informer: 'configmaps', kind: 'event', type: 'MODIFIED', key: 'default/a', resourceVersion: '4' }, markers, undefined, true), { at: 9, informer: 'controller:mirror/configmaps', resource: 'configmaps', cluster: 'mirror cache', namespace: 'default', name: 'a', type: 'MODIFIED', resourceVersion: '4' });
  });

  it('marks a relist of the controller\'s informer once, when its list completes; its first list is no relist', () => {
    const markers = new InformerMarkers();
    const listEnd = (at: number, informer: string, resourceVersion: string) => probeTimelineEvent('rs', { at, informer, kind: 'listEnd', resourceVersion, items: 1, durationMs: 1 }, markers);
    assert.equal(listEnd(1, 'pods', '5'), undefined, 'the first list');
    assert.equal(probeTimelineEvent('rs', { at: 2, informer: 'pods', kind: 'relist', cause: 'expired' }, markers), undefined, 'a relist is marked when its list completes');
    assert.deepEqual(listEnd(3, 'pods', '9'), { at: 3, informer: 'controller:rs/pods', resource: 'pods', cluster: 'rs cache', namespace: '', name: '', type: 'RELIST', resourceVersion: '9' });
    assert.equal(listEnd(4, 'nodes', '9'), undefined, 'another informer\'s first list');
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

  it("marks what was done to the run (a replayed finding's perturbation) on a lane of its own, saying what", () => {
    const feed = new TimelineFeed(100);
    const session = new FakeSession();
    session.controller = SHAPE;
    publishToTimeline(session as unknown as SessionLike, feed, () => 'child-maker');
    session.send('perturbed', { what: 'killed right after `create ConfigMap default/web-*`, then restarted', resourceVersion: '146', at: 5 });
    const [marker] = feed.events.all();
    assert.deepEqual(
      { type: marker?.type, lane: marker?.informer, rv: marker?.resourceVersion, at: marker?.at, note: marker?.note, cluster: marker?.cluster, name: marker?.name },
      { type: 'PERTURBATION', lane: 'controller:child-maker/perturbations', rv: '146', at: 5, note: 'killed right after `create ConfigMap default/web-*`, then restarted', cluster: 'child-maker cache', name: '' },
    );
  });

  it('gives a reconcile with stale reads its warnings, as the Debug Console words them', () => {
    const span = reconcileSpan(
      record({
        durationMs: 3,
        outcome: { kind: 'success', result: {} },
        staleReads: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'web', readResourceVersion: '11', wroteResourceVersion: '12', wroteBy: 7, verb: 'update' }],
      }),
    );
    assert.deepEqual(span.warnings, ['warning: stale read: ConfigMap default/web at rv 11, older than rv 12 this controller wrote (update in #7)']);
    assert.equal(reconcileSpan(record()).warnings, undefined);
    assert.equal(isSpansParams({ spans: [span] }), true);
    assert.equal(isSpansParams({ spans: [{ ...span, warnings: [3] }] }), false);
  });
});

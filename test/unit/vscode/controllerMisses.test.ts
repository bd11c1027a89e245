import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { FakeSession, SHAPE } from './support/fakeControllerSession.ts';
import { publishToTimeline } from '../../../src/vscode/controllers/controllerTimeline.ts';
import { MissedEvents, type MissedEvent } from '../../../src/vscode/controllers/missedEvents.ts';
import type { SessionLike } from '../../../src/vscode/controllers/sessionLike.ts';
import type { EventFate } from '../../../src/controllerProtocol/records.ts';
import { decodeFateBatch, FateBatchWriter } from '../../../src/controllerProtocol/fateBatch.ts';
import { laneKeyOf } from '../../../src/shared/protocol/timeline.ts';
import { TimelineFeed } from '../../../src/vscode/model/timelineFeed.ts';

// A controller's misses on the timeline: an event that reached it and enqueued nothing at any
// source is drawn on its object's lane, with the reasons on hover; an event that any source
// enqueued is no miss.

const fate = (f: Partial<EventFate>): EventFate => ({ controller: 'replicaset-controller', type: 'MODIFIED', apiVersion: 'v1', kind: 'Pod', key: 'default/web-x1', resourceVersion: '11', via: 'owns', fate: 'unmapped', at: 50, ...f });

describe("a controller's misses", () => {
  it('gathers an event\'s fates from every source: a miss only when none enqueued, with each reason', () => {
    const misses: MissedEvent[] = [];
    const gather = new MissedEvents((m) => misses.push(m), 60_000);
    gather.add(fate({ via: 'owns', fate: 'unmapped' }));
    gather.add(fate({ via: 'watches', fate: 'filtered', predicate: 'OnlyLabelled' }));
    gather.add(fate({ resourceVersion: '12', via: 'owns', fate: 'unmapped' }));
    gather.add(fate({ resourceVersion: '12', via: 'watches', fate: 'merged', request: 'default/web' }));
    gather.add(fate({ resourceVersion: '13', type: 'RESYNC', fate: 'filtered', predicate: 'P' }));
    gather.flush();
    gather.dispose();
    assert.deepEqual(misses.map((m) => [m.resourceVersion, m.reasons]), [['11', ['mapped to no request (Owns)', 'filtered by OnlyLabelled (Watches)']]]);
  });

  it('draws each miss on its object\'s lane of the controller\'s cache, saying why', async () => {
    const feed = new TimelineFeed(100);
    const session = new FakeSession();
    session.controller = SHAPE;
    const stop = publishToTimeline(session as unknown as SessionLike, feed, () => 'replicaset-controller');
    session.send('probe', { probe: { at: 49, informer: 'pods@default', kind: 'delta', type: 'Updated', key: 'default/web-x1', resourceVersion: '11' } });
    // As the host sends them: one batch string, decoded when the timeline takes it.
    const batch = new FateBatchWriter();
    batch.add(fate({}));
    batch.add(fate({ kind: 'ReplicaSet', apiVersion: 'apps/v1', key: 'default/web', via: 'for', fate: 'filtered', predicate: 'GenerationChangedPredicate' }));
    batch.add(fate({ resourceVersion: '14', fate: 'enqueued', request: 'default/web' }));
    const data = batch.finish();
    session.send('fates', { count: 3, decode: () => decodeFateBatch(data) });
    await sleep(600);
    stop();
    const [delta, ...drawn] = feed.events.all();
    assert.deepEqual(drawn.map((e) => [e.type, e.informer, e.resource, e.namespace, e.name, e.resourceVersion, e.note]), [
      ['MISSED', 'controller:replicaset-controller/pods@default', 'pods', 'default', 'web-x1', '11', 'replicaset-controller enqueued nothing: mapped to no request (Owns)'],
      ['MISSED', 'controller:replicaset-controller/replicasets.apps', 'replicasets.apps', 'default', 'web', '11', 'replicaset-controller enqueued nothing: filtered by GenerationChangedPredicate (For)'],
    ]);
    assert.ok(delta && drawn[0]);
    assert.equal(laneKeyOf(drawn[0]), laneKeyOf(delta), 'the miss rings the event on its own lane');
  });
});

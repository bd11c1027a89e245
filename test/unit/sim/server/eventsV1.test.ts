// The events.k8s.io/v1 API over HTTP, as client-go's events recorder uses it: an Event written there
// is the core v1 Event under other field names (one storage, both APIs), validated as the newer API
// validates creates, listed and watched with its own field names.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, openWatch } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const EVENTS = '/apis/events.k8s.io/v1/namespaces/default/events';

function event(name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name },
    eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'rock-and-roll', reportingInstance: 'rock-and-roll-1',
    action: 'dance action', reason: 'BallroomBlitz', type: 'Warning', note: 'yeah, yeah',
    regarding: { kind: 'Namespace', name: 'default', apiVersion: 'v1' },
    ...extra,
  };
}

describe('events.k8s.io/v1', () => {
  it('is served in discovery beside the core events', async () => {
    const doc = (await call(suite.server, 'GET', '/apis/events.k8s.io/v1')).json();
    assert.deepEqual(doc.resources.map((r: { name: string; kind: string }) => [r.name, r.kind]), [['events', 'Event']]);
  });

  it('stores an Event once: created here, read through core v1 with the core field names', async () => {
    const created = await call(suite.server, 'POST', EVENTS, { body: event('blitz') });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().apiVersion, 'events.k8s.io/v1');
    assert.equal(created.json().note, 'yeah, yeah');
    assert.deepEqual(created.json().regarding, { kind: 'Namespace', name: 'default', apiVersion: 'v1' });
    const core = (await call(suite.server, 'GET', '/api/v1/namespaces/default/events/blitz')).json();
    assert.equal(core.message, 'yeah, yeah');
    assert.equal(core.reportingComponent, 'rock-and-roll');
    assert.deepEqual(core.involvedObject, { kind: 'Namespace', name: 'default', apiVersion: 'v1' });
    assert.equal(core.note, undefined);
  });

  it('lists across namespaces with its own field names in selectors', async () => {
    const list = (await call(suite.server, 'GET', '/apis/events.k8s.io/v1/events?fieldSelector=regarding.name%3Ddefault')).json();
    assert.equal(list.kind, 'EventList');
    assert.equal(list.apiVersion, 'events.k8s.io/v1');
    assert.deepEqual(list.items.map((e: { reason: string }) => e.reason), ['BallroomBlitz']);
    const none = (await call(suite.server, 'GET', '/apis/events.k8s.io/v1/events?fieldSelector=regarding.name%3Dother')).json();
    assert.deepEqual(none.items, []);
  });

  it('needs an eventTime and a Normal or Warning type on create (422, as the newer API validates)', async () => {
    const r = await call(suite.server, 'POST', EVENTS, { body: event('untimed', { eventTime: null, type: 'Loud' }) });
    assert.equal(r.status, 422);
    assert.equal(r.json().message, 'Event.events.k8s.io "untimed" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: Loud]');
  });

  it('streams watch events in its own shape, and a strategic merge patch (a series update) changes the stored Event', async () => {
    const watch = await openWatch(suite.server, `${EVENTS}?watch=1&fieldSelector=metadata.name%3Dblitz`);
    try {
      const [added] = await watch.waitForLines(1);
      assert.equal(JSON.parse(added!).object.apiVersion, 'events.k8s.io/v1');
      const series = { series: { count: 2, lastObservedTime: '2026-01-01T00:00:01.000000Z' } };
      const r = await call(suite.server, 'PATCH', `${EVENTS}/blitz`, { body: series, contentType: 'application/strategic-merge-patch+json' });
      assert.equal(r.status, 200, r.body);
      assert.equal(r.json().series.count, 2);
      const lines = await watch.waitForLines(2);
      const modified = JSON.parse(lines[1]!);
      assert.equal(modified.type, 'MODIFIED');
      assert.equal(modified.object.note, 'yeah, yeah');
      assert.equal(modified.object.series.count, 2);
    } finally {
      watch.close();
    }
  });
});

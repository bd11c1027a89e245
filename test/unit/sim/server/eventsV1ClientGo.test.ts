// events.k8s.io/v1 as client-go uses it: DeleteOptions bodies in protobuf, and a core v1 list by
// `source` finding Events that only name their reporting controller (the events API's own field).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';
import { envelope, PROTOBUF } from './protobufWriter.ts';

const suite = suiteServer();
const EVENTS = '/apis/events.k8s.io/v1/namespaces/default/events';

const event = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name, labels },
  eventTime: '2017-09-19T13:49:16.000000Z', reportingController: 'test-controller', reportingInstance: 'test-node',
  action: 'Do', reason: 'Test', type: 'Normal', note: `This is ${name}`, regarding: { namespace: 'default' },
});

const names = async (path: string): Promise<string[]> => (await call(suite.server, 'GET', path)).json().items.map((e: { metadata: { name: string } }) => e.metadata.name);

describe('events.k8s.io/v1 from client-go', () => {
  it('a core v1 list by source finds an Event that only names its reporting controller', async () => {
    assert.equal((await call(suite.server, 'POST', EVENTS, { body: event('reported') })).status, 201);
    assert.deepEqual(await names('/api/v1/namespaces/default/events?fieldSelector=source%3Dtest-controller'), ['reported']);
    assert.deepEqual(await names('/api/v1/namespaces/default/events?fieldSelector=source%3Dsomeone-else'), []);
  });

  it('deletes a collection with the protobuf DeleteOptions client-go sends', async () => {
    for (const name of ['set-1', 'set-2']) assert.equal((await call(suite.server, 'POST', EVENTS, { body: event(name, { set: 'true' }) })).status, 201);
    // client-go encodes DeleteOptions{} in the client's group version, with no fields set.
    const body = envelope('events.k8s.io/v1', 'DeleteOptions', []);
    const deleted = await call(suite.server, 'DELETE', `${EVENTS}?labelSelector=set%3Dtrue`, { body, contentType: PROTOBUF });
    assert.equal(deleted.status, 200, deleted.body);
    assert.deepEqual(await names(`${EVENTS}?labelSelector=set%3Dtrue`), []);
  });

  it('deletes one Event with a protobuf DeleteOptions body', async () => {
    assert.equal((await call(suite.server, 'POST', EVENTS, { body: event('single') })).status, 201);
    const deleted = await call(suite.server, 'DELETE', `${EVENTS}/single`, { body: envelope('events.k8s.io/v1', 'DeleteOptions', []), contentType: PROTOBUF });
    assert.equal(deleted.status, 200, deleted.body);
    assert.equal((await call(suite.server, 'GET', `${EVENTS}/single`)).status, 404);
  });
});

// client-go's metadata client (controller-runtime's metadata-only caches) asks for
// PartialObjectMetadata: gets, lists, watch events (bookmarks included) and write answers carry
// only kind meta.k8s.io/v1 PartialObjectMetadata and the object's metadata.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, openWatch } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const ITEM = 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const LIST = 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

describe('PartialObjectMetadata rendering', () => {
  const suite = suiteServer();

  it('answers a get, a list and a write with metadata only', async () => {
    const created = await call(suite.server, 'POST', CONFIGMAPS, { body: { metadata: { name: 'meta-a', labels: { app: 'x' } }, data: { secret: 'value' } }, accept: ITEM });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().kind, 'PartialObjectMetadata');
    assert.equal(created.json().data, undefined);

    const got = await call(suite.server, 'GET', `${CONFIGMAPS}/meta-a`, { accept: ITEM });
    assert.deepEqual(Object.keys(got.json()).sort(), ['apiVersion', 'kind', 'metadata']);
    assert.equal(got.json().apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(got.json().metadata.labels, { app: 'x' });

    const listed = await call(suite.server, 'GET', CONFIGMAPS, { accept: LIST });
    const list = listed.json();
    assert.equal(list.kind, 'PartialObjectMetadataList');
    assert.ok(Number(list.metadata.resourceVersion) > 0);
    const item = list.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'meta-a');
    assert.deepEqual(item, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: got.json().metadata });
  });

  it('streams watch events and bookmarks as PartialObjectMetadata', async () => {
    const watch = await openWatch(suite.server, `${CONFIGMAPS}?watch=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`, ITEM);
    assert.equal(watch.status, 200);
    await call(suite.server, 'POST', CONFIGMAPS, { body: { metadata: { name: 'meta-b' }, data: { k: 'v' } } });
    const lines = await watch.waitForLines(3);
    watch.close();
    const events = lines.map((l) => JSON.parse(l) as { type: string; object: { kind: string; metadata: { name?: string } } });
    assert.ok(events.some((e) => e.type === 'BOOKMARK'), lines.join('\n'));
    for (const e of events) assert.equal(e.object.kind, 'PartialObjectMetadata', JSON.stringify(e));
    assert.ok(events.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'meta-b'));
  });

  it('refuses the item form for a list and the list form for an item when nothing else is acceptable', async () => {
    const wrongList = await call(suite.server, 'GET', CONFIGMAPS, { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' });
    assert.equal(wrongList.status, 406);
    const wrongItem = await call(suite.server, 'GET', `${CONFIGMAPS}/meta-a`, { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' });
    assert.equal(wrongItem.status, 406);
  });
});

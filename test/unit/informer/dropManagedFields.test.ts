import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSharedInformer, dropManagedFields } from '../../../src/informer/index.ts';
import type { ListerWatcher, WatchSink } from '../../../src/informer/index.ts';
import type { KubeObject } from '../../../src/shared/k8s.ts';

const MANAGED = [{ manager: 'kubelet', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': {} }, subresource: 'status' }];

function pod(name: string, rv: number, phase: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns', name, resourceVersion: String(rv), uid: `uid-${name}`, managedFields: structuredClone(MANAGED) }, status: { phase } };
}

/** A server with one Pod; the test pushes watch events through `sink`. */
function server(initial: KubeObject[]): ListerWatcher & { sink?: WatchSink } {
  const lw: ListerWatcher & { sink?: WatchSink } = {
    list: async () => ({ metadata: { resourceVersion: '10' }, items: initial }),
    watch: async (_options, sink) => {
      lw.sink = sink;
      return { stop() {} };
    },
  };
  return lw;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('an informer that drops managedFields (its transform)', () => {
  it('stores and hands handlers objects without managedFields, from the list and from watch events, once per object', async () => {
    const listed = pod('a', 5, 'Pending');
    const lw = server([listed]);
    let calls = 0;
    const informer = createSharedInformer({
      name: 'pods',
      listerWatcher: lw,
      transform: (o) => {
        calls++;
        return dropManagedFields(o);
      },
    });
    const seen: KubeObject[] = [];
    informer.addEventHandler({ onAdd: (o) => void seen.push(o as KubeObject), onUpdate: (_old, o) => void seen.push(o as KubeObject), onDelete: () => {} });
    informer.run();
    assert.equal(await informer.waitForSync(), true);
    while (!lw.sink) await settle();
    lw.sink.event({ type: 'MODIFIED', object: pod('a', 11, 'Running') });
    lw.sink.event({ type: 'ADDED', object: pod('b', 12, 'Pending') });
    await settle();

    assert.deepEqual(seen.map((o) => [o.metadata.name, o.metadata.resourceVersion, o.metadata.managedFields]), [
      ['a', '5', undefined],
      ['a', '11', undefined],
      ['b', '12', undefined],
    ]);
    for (const key of ['ns/a', 'ns/b']) {
      const cached = informer.indexer.get(key);
      assert.ok(cached, key);
      assert.equal('managedFields' in cached.metadata, false, `${key} in the cache`);
    }
    assert.equal((informer.indexer.get('ns/a')?.status as { phase: string }).phase, 'Running', 'everything else is kept');
    assert.equal(calls, 3, 'one call per object the server sent');
    assert.deepEqual(listed.metadata.managedFields, MANAGED, 'the server’s object is copied, not changed');
    informer.stop();
  });

  it('leaves objects without managedFields as they are (no copy)', () => {
    const o = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'ns' }, data: { k: 'v' } };
    assert.equal(dropManagedFields(o), o);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDeltaFifo, DeletedFinalStateUnknown } from '../../../src/informer/deltaFifo.ts';
import type { Delta, DeltaFifo } from '../../../src/informer/deltaFifo.ts';
import type { DeepReadonly } from '../../../src/informer/readonly.ts';
import { createIndexer } from '../../../src/informer/store.ts';
import type { Indexer } from '../../../src/informer/store.ts';
import type { KubeObject } from '../../../src/shared/k8s.ts';
import { obj } from './fixtures/fakeSource.ts';

function v(namespace: string, name: string, rv: string): KubeObject {
  const o = obj(namespace, name);
  o.metadata.resourceVersion = rv;
  return o;
}

function setup(transform?: (o: KubeObject) => KubeObject): { fifo: DeltaFifo; cache: Indexer; popAll: () => [string, Delta[]][] } {
  const cache = createIndexer();
  const fifo = createDeltaFifo({ knownObjects: cache, transform });
  const popAll = (): [string, Delta[]][] => {
    const out: [string, Delta[]][] = [];
    while (
      fifo.pop((key, deltas) => {
        out.push([key, [...deltas]]);
        // Apply like the informer does, so knownObjects follows.
        for (const d of deltas) {
          if (d.type === 'Deleted') cache.delete(key);
          else cache.set(key, d.object as DeepReadonly<KubeObject>);
        }
      })
    ) {
      // keep popping
    }
    return out;
  };
  return { fifo, cache, popAll };
}

const types = (deltas: Delta[]): string[] => deltas.map((d) => d.type);

describe('DeltaFIFO', () => {
  it('keeps each key’s deltas in order and pops keys in first-queued order', () => {
    const { fifo, popAll } = setup();
    fifo.add(v('ns', 'a', '1'));
    fifo.add(v('ns', 'b', '2'));
    fifo.update(v('ns', 'a', '3'));
    const popped = popAll();
    assert.deepEqual(popped.map(([k]) => k), ['ns/a', 'ns/b']);
    assert.deepEqual(types(popped[0]![1]), ['Added', 'Updated']);
    assert.deepEqual(popped[0]![1].map((d) => (d.object as KubeObject).metadata.resourceVersion), ['1', '3']);
  });

  it('collapses consecutive deletes, keeping the one with the known final state', () => {
    const { fifo, cache, popAll } = setup();
    cache.set('ns/a', v('ns', 'a', '1') as DeepReadonly<KubeObject>);
    fifo.delete(v('ns', 'a', '2'));
    fifo.replace([], '3');
    fifo.delete(v('ns', 'a', '4'));
    const popped = popAll();
    assert.equal(popped.length, 1);
    const deltas = popped[0]![1];
    assert.deepEqual(types(deltas), ['Deleted']);
    assert.equal((deltas[0]!.object as KubeObject).metadata.resourceVersion, '4');
  });

  it('ignores a delete for an object neither cached nor queued', () => {
    const { fifo } = setup();
    fifo.delete(v('ns', 'ghost', '1'));
    assert.equal(fifo.length, 0);
  });

  it('replace emits tombstones for vanished keys with the last known state', () => {
    const { fifo, cache, popAll } = setup();
    cache.set('ns/gone', v('ns', 'gone', '5') as DeepReadonly<KubeObject>);
    cache.set('ns/kept', v('ns', 'kept', '6') as DeepReadonly<KubeObject>);
    fifo.replace([v('ns', 'kept', '6')], '9');
    const popped = new Map(popAll());
    assert.deepEqual(types(popped.get('ns/kept')!), ['Replaced']);
    const tomb = popped.get('ns/gone')![0]!;
    assert.equal(tomb.type, 'Deleted');
    assert.ok(tomb.object instanceof DeletedFinalStateUnknown);
    assert.equal(tomb.object.key, 'ns/gone');
    assert.equal(tomb.object.obj?.metadata.resourceVersion, '5');
  });

  it('replace tombstones keys that were only queued, not yet cached', () => {
    const { fifo, popAll } = setup();
    fifo.add(v('ns', 'a', '1'));
    fifo.replace([], '2');
    const popped = popAll();
    assert.deepEqual(types(popped[0]![1]), ['Added', 'Deleted']);
  });

  it('is synced only after every key of the first replace is popped', () => {
    const { fifo } = setup();
    assert.equal(fifo.hasSynced(), false);
    fifo.replace([v('ns', 'a', '1'), v('ns', 'b', '1')], '1');
    assert.equal(fifo.hasSynced(), false);
    const initial: boolean[] = [];
    fifo.pop((_k, _d, isInitial) => initial.push(isInitial));
    assert.equal(fifo.hasSynced(), false);
    fifo.pop((_k, _d, isInitial) => initial.push(isInitial));
    assert.equal(fifo.hasSynced(), true);
    assert.deepEqual(initial, [true, true]);
  });

  it('an empty first replace syncs at once', () => {
    const { fifo } = setup();
    fifo.replace([], '1');
    assert.equal(fifo.hasSynced(), true);
  });

  it('resync queues Sync for cached objects without pending deltas', () => {
    const { fifo, cache, popAll } = setup();
    const a = v('ns', 'a', '1') as DeepReadonly<KubeObject>;
    cache.set('ns/a', a);
    cache.set('ns/b', v('ns', 'b', '1') as DeepReadonly<KubeObject>);
    fifo.update(v('ns', 'b', '2'));
    fifo.resync();
    const popped = new Map(popAll());
    assert.deepEqual(types(popped.get('ns/a')!), ['Sync']);
    assert.equal(popped.get('ns/a')![0]!.object, a);
    assert.deepEqual(types(popped.get('ns/b')!), ['Updated']);
  });

  it('applies the transform before queueing, but not to tombstones', () => {
    const { fifo, cache, popAll } = setup((o) => ({ ...o, metadata: { ...o.metadata, managedFields: undefined }, transformed: true }));
    cache.set('ns/old', v('ns', 'old', '1') as DeepReadonly<KubeObject>);
    fifo.replace([v('ns', 'a', '2')], '2');
    const popped = new Map(popAll());
    assert.equal((popped.get('ns/a')![0]!.object as KubeObject).transformed, true);
    assert.ok(popped.get('ns/old')![0]!.object instanceof DeletedFinalStateUnknown);
  });

  it('calls onNonEmpty only when the queue goes from empty to non-empty', () => {
    const cache = createIndexer();
    let calls = 0;
    const fifo = createDeltaFifo({ knownObjects: cache, onNonEmpty: () => calls++ });
    fifo.add(v('ns', 'a', '1'));
    fifo.add(v('ns', 'b', '1'));
    fifo.update(v('ns', 'a', '2'));
    assert.equal(calls, 1);
    while (fifo.pop(() => {})) {
      // drain
    }
    fifo.add(v('ns', 'c', '1'));
    assert.equal(calls, 2);
  });

  describe('with a waiting consumer', () => {
    function consumed(onSynced?: (rv: string) => void): { fifo: DeltaFifo; cache: Indexer; log: string[] } {
      const cache = createIndexer();
      const log: string[] = [];
      const fifo = createDeltaFifo({
        knownObjects: cache,
        onSynced,
        consumer: (key, deltas, initial) => {
          for (const d of deltas) {
            log.push(`${d.type} ${key}${initial ? ' (initial)' : ''}`);
            if (d.type === 'Deleted') cache.delete(key);
            else cache.set(key, d.object as DeepReadonly<KubeObject>);
          }
        },
      });
      return { fifo, cache, log };
    }

    it('a delta into an empty queue is handed over at once, nothing stays queued', () => {
      const { fifo, cache, log } = consumed();
      fifo.add(v('ns', 'a', '1'));
      assert.deepEqual(log, ['Added ns/a']);
      assert.equal(fifo.length, 0);
      assert.equal(cache.get('ns/a')?.metadata.resourceVersion, '1');
    });

    it('the first replace is handed over as the initial list, then syncs with its resourceVersion', () => {
      const synced: string[] = [];
      const { fifo, log } = consumed((rv) => synced.push(rv));
      fifo.replace([v('ns', 'a', '1'), v('ns', 'b', '2')], '7');
      assert.deepEqual(log, ['Replaced ns/a (initial)', 'Replaced ns/b (initial)']);
      assert.equal(fifo.hasSynced(), true);
      assert.deepEqual(synced, ['7']);
      fifo.replace([v('ns', 'a', '1')], '9');
      assert.deepEqual(log.slice(2), ['Replaced ns/a', 'Deleted ns/b']);
      assert.deepEqual(synced, ['7'], 'onSynced is called once');
    });

    it('deltas queued while the consumer runs follow in order, even when it throws', () => {
      const log: string[] = [];
      const fifo: DeltaFifo = createDeltaFifo({
        knownObjects: createIndexer(),
        consumer: (key) => {
          log.push(key);
          if (log.length > 1) return;
          fifo.add(v('ns', 'b', '2'));
          fifo.update(v('ns', 'a', '3'));
          assert.equal(fifo.length, 2, 'queued behind the delta being consumed');
          throw new Error('consumer failed');
        },
      });
      assert.throws(() => fifo.add(v('ns', 'a', '1')), /consumer failed/);
      assert.deepEqual(log, ['ns/a', 'ns/b', 'ns/a']);
      assert.equal(fifo.length, 0);
    });
  });
});

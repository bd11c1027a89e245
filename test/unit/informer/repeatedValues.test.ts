import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSharedInformer, ITEMS_PREPARED } from '../../../src/informer/index.ts';
import type { ListerWatcher } from '../../../src/informer/index.ts';
import { RepeatedValues } from '../../../src/informer/sharedValues.ts';
import { INITIAL_EVENTS_END_ANNOTATION } from '../../../src/shared/k8s.ts';
import type { KubeObject, WatchEvent } from '../../../src/shared/k8s.ts';

// A list's items repeat long values (a CA bundle in every namespace, one payload in every replica's
// ConfigMap): made one string as the items are decoded, they cost their bytes once while the list
// is held, and every item still reads as the server sent it.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const BUNDLE = 'Q'.repeat(16 * 1024);

/** A ConfigMap decoded from its own JSON text, as a list decoder hands it over: no two share a string. */
function decoded(i: number, data: Record<string, string>, annotations?: Record<string, string>): KubeObject {
  return JSON.parse(JSON.stringify({ metadata: { namespace: 'ns', name: `cm-${i}`, resourceVersion: String(i + 1), ...(annotations ? { annotations } : {}) }, data })) as KubeObject;
}

/** Heap that `hold()`'s result keeps alive, after full collections. */
function heapKept(hold: () => unknown): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const held = hold();
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  assert.ok(held);
  return grown;
}

/**
 * Runs an informer over `lw` to its sync; returns the heap it and `bundles` (the backend's own
 * reference to each object's bundle) keep after full collections. Each bundle held as its own
 * copy would be 16 MB in all.
 */
async function syncedHeap(lw: ListerWatcher, bundles: string[], useWatchList = false): Promise<number> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const informer = createSharedInformer({ name: 'configmaps', listerWatcher: lw, useWatchList });
  informer.run();
  await informer.waitForSync();
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  informer.stop();
  assert.equal(informer.indexer.size, 1000);
  assert.equal(bundles.length, 1000);
  return grown;
}

describe('values repeated within a list', () => {
  it('a thousand items carrying the same 16 KB bundle hold it once', () => {
    const texts = Array.from({ length: 1000 }, (_, i) => JSON.stringify(decoded(i, { bundle: BUNDLE })));
    const plain = heapKept(() => texts.map((t) => JSON.parse(t) as KubeObject));
    const repeated = new RepeatedValues();
    const shared = heapKept(() => texts.map((t) => repeated.share(JSON.parse(t) as KubeObject)));
    assert.ok(plain > 12 * 1024 * 1024, `without sharing the items held ${(plain / 1048576).toFixed(1)} MB`);
    assert.ok(shared < 2 * 1024 * 1024, `the items held ${(shared / 1048576).toFixed(1)} MB`);
  });

  it('shares data, binaryData and annotations, and leaves every value as it was', () => {
    const repeated = new RepeatedValues();
    const long = (c: string) => c.repeat(80);
    const items = [0, 1, 2].map((i) => repeated.share(decoded(i, { same: long('a'), own: long(String(i)), short: 'x' }, { note: long('n') })));
    items.forEach((item, i) => {
      assert.deepEqual(item['data'], { same: long('a'), own: long(String(i)), short: 'x' });
      assert.deepEqual(item.metadata.annotations, { note: long('n') });
    });
    // Anything else is handed back untouched.
    for (const odd of [null, 7, 'text', {}, { data: 'not a record' }, { data: Object.freeze({ k: long('f') }) }]) assert.equal(repeated.share(odd), odd);
  });

  it('values whose fingerprints collide each keep their own text', () => {
    // Same length, same sampled characters and last 4: only the unsampled middle differs.
    const a = `${'x'.repeat(100)}A${'x'.repeat(99)}`;
    const b = `${'x'.repeat(100)}B${'x'.repeat(99)}`;
    const repeated = new RepeatedValues();
    const first = repeated.share(decoded(0, { v: a }));
    const second = repeated.share(decoded(1, { v: b }));
    assert.equal((first['data'] as Record<string, string>)['v'], a);
    assert.equal((second['data'] as Record<string, string>)['v'], b);
  });

  it('the informer shares them while it lists, before the cache sees the items', async () => {
    // A backend that keeps each decoded item's bundle: what it holds shows what the list held (the
    // cache swaps values inside its objects later, but not in a string kept elsewhere).
    const bundles: string[] = [];
    const texts = Array.from({ length: 1000 }, (_, i) => JSON.stringify(decoded(i, { bundle: BUNDLE })));
    const lw: ListerWatcher = {
      list: async (_options, _signal, prepareItem) => {
        const items = texts.map((text) => {
          const item = JSON.parse(text) as KubeObject;
          const prepared = prepareItem ? prepareItem(item) : item;
          bundles.push((prepared['data'] as Record<string, string>)['bundle']!);
          return prepared;
        });
        return { metadata: { resourceVersion: '1000' }, items, [ITEMS_PREPARED]: true };
      },
      watch: () => new Promise(() => {}),
    };
    const grown = await syncedHeap(lw, bundles);
    assert.ok(grown < 4 * 1024 * 1024, `the list and the cache held ${(grown / 1048576).toFixed(1)} MB`);
  });

  it('a streaming list (sendInitialEvents) shares them as its objects arrive', async () => {
    const bundles: string[] = [];
    const texts = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ type: 'ADDED', object: decoded(i, { bundle: BUNDLE }) }));
    const lw: ListerWatcher = {
      list: () => Promise.reject(new Error('this backend only streams its lists')),
      watch: async (options, sink) => {
        assert.equal(options.sendInitialEvents, true);
        setImmediate(() => {
          for (const text of texts) {
            const event = JSON.parse(text) as WatchEvent;
            sink.event(event);
            // What the informer holds of the event's object, once it took it.
            bundles.push((event.object['data'] as Record<string, string>)['bundle']!);
          }
          sink.event({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '1000', annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } } } as KubeObject });
        });
        return { stop: () => {} };
      },
    };
    const grown = await syncedHeap(lw, bundles, true);
    assert.ok(grown < 4 * 1024 * 1024, `the streamed list and the cache held ${(grown / 1048576).toFixed(1)} MB`);
  });
});

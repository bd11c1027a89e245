import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDeltaFifo } from '../../../src/informer/deltaFifo.ts';
import type { DeepReadonly } from '../../../src/informer/readonly.ts';
import { createIndexer } from '../../../src/informer/store.ts';
import type { KubeObject } from '../../../src/shared/k8s.ts';
import { obj } from './fixtures/fakeSource.ts';

// A large list in a DeltaFIFO with `sliceMs`: the whole list is queued by one replace, then handed to
// the consumer a slice at a time, so timers and I/O run between slices (an editor's extension host
// stays responsive while 50,000 objects arrive), in order, with hasSynced true only at the end.

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // a consumer that takes a while per object
  }
}

test('sliced: a 2,000-object list is handed over in slices, timers run between them, order and hasSynced hold', async () => {
  const cache = createIndexer();
  const seen: string[] = [];
  let syncedAfter = -1;
  const fifo = createDeltaFifo({
    knownObjects: cache,
    sliceMs: 5,
    consumer: (key, deltas) => {
      busy(0.05);
      seen.push(`${deltas[deltas.length - 1]!.type} ${key}`);
      for (const d of deltas) {
        if (d.type === 'Deleted') cache.delete(key);
        else cache.set(key, d.object as DeepReadonly<KubeObject>);
      }
    },
    onSynced: () => (syncedAfter = seen.length),
  });
  const list = Array.from({ length: 2000 }, (_, i) => obj('ns', `o-${String(i).padStart(4, '0')}`));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    fifo.replace(list, '10');
    assert.ok(seen.length < list.length, `replace handed over ${seen.length} of ${list.length} at once`);
    assert.equal(fifo.hasSynced(), false);
    // A change that arrives meanwhile waits behind the list.
    fifo.update({ ...obj('ns', 'o-0000'), data: { changed: 'yes' } });
    for (let i = 0; i < 2000 && (!fifo.hasSynced() || fifo.length > 0); i++) await new Promise((r) => setTimeout(r, 5));
  } finally {
    clearInterval(timer);
  }
  assert.ok(ticks >= 3, `the timer ran ${ticks} times while the list was handed over`);
  assert.equal(syncedAfter, list.length, 'synced once the whole list was handed over');
  assert.deepEqual(seen.slice(0, list.length), list.map((o) => `Replaced ns/${o.metadata.name}`));
  assert.deepEqual(seen.slice(list.length), ['Updated ns/o-0000']);
  assert.equal(cache.size, list.length);
  assert.deepEqual(cache.get('ns/o-0000')?.data, { changed: 'yes' });
});

test('without sliceMs the list is handed over within replace, as before', () => {
  const cache = createIndexer();
  let handed = 0;
  const fifo = createDeltaFifo({ knownObjects: cache, consumer: () => void handed++ });
  fifo.replace(Array.from({ length: 500 }, (_, i) => obj('ns', `o-${i}`)), '10');
  assert.equal(handed, 500);
  assert.equal(fifo.hasSynced(), true);
});

test('sliced: queueing a large list is itself sliced; an update, a delete and a relist that arrive meanwhile wait behind it, in order', async () => {
  const cache = createIndexer();
  // One entry per hand-over: the key and its deltas' types, oldest first.
  const handed: string[] = [];
  let deltas = 0;
  let queued = 0;
  const fifo = createDeltaFifo({
    knownObjects: cache,
    sliceMs: 5,
    consumer: (key, ds) => {
      handed.push(`${ds.map((d) => d.type).join('+')} ${key}`);
      for (const d of ds) {
        deltas++;
        if (d.type === 'Deleted') cache.delete(key);
        else cache.set(key, d.object as DeepReadonly<KubeObject>);
      }
    },
    // Whoever watches the deltas (the views' timeline) takes a while per object.
    onDelta: () => {
      queued++;
      busy(0.05);
    },
  });
  const name = (i: number) => `o-${String(i).padStart(4, '0')}`;
  const list = Array.from({ length: 3000 }, (_, i) => obj('ns', name(i)));
  fifo.replace(list, '10');
  assert.ok(queued < list.length, `replace queued ${queued} of ${list.length} objects before returning`);
  fifo.update({ ...obj('ns', 'o-0000'), data: { changed: 'yes' } });
  fifo.delete(obj('ns', 'o-0001'));
  // A relist that no longer has o-0002: its tombstone comes after the relisted objects.
  const relist = list.filter((o) => o.metadata.name !== 'o-0002').slice(0, 10);
  fifo.replace(relist, '20');
  assert.equal(fifo.hasSynced(), false);
  // The list, the update and delete, the relist, and a tombstone for each of the 2,999 cached objects but the 9 relisted.
  const total = list.length + 2 + relist.length + (list.length - 1 - 9);
  for (let i = 0; i < 2000 && deltas < total; i++) await new Promise((r) => setTimeout(r, 5));
  assert.equal(deltas, total);
  assert.equal(fifo.hasSynced(), true);
  // The list first, in order. How far the consumer got before the update, the delete and the
  // relist were queued is a matter of timing: a key still queued then takes the new delta in its
  // place, as in client-go's DeltaFIFO, and is handed over once with all its deltas.
  assert.deepEqual(handed.slice(0, list.length).map((h) => h.split(' ')[1]), list.map((o) => `ns/${o.metadata.name}`));
  // Each key's deltas, across hand-overs, in the order they arrived.
  const history = new Map<string, string[]>();
  for (const h of handed) {
    const [types, key] = h.split(' ') as [string, string];
    history.set(key, [...(history.get(key) ?? []), ...types.split('+')]);
  }
  const relisted = new Set(relist.map((o) => o.metadata.name));
  for (let i = 0; i < list.length; i++) {
    const expected = i === 0 ? ['Replaced', 'Updated', 'Replaced']
      : i === 1 ? ['Replaced', 'Deleted', 'Replaced']
        : relisted.has(name(i)) ? ['Replaced', 'Replaced'] : ['Replaced', 'Deleted'];
    assert.deepEqual(history.get(`ns/${name(i)}`), expected, name(i));
  }
  // Behind the list, keys are handed over in the order of their first delta: the update and the
  // delete, then the relist, then the tombstones of what it no longer has (o-0002 among them).
  const after = handed.slice(list.length);
  const phase = (h: string) => {
    const [types, key] = h.split(' ') as [string, string];
    const type = types.split('+')[0];
    return (type === 'Updated' && key === 'ns/o-0000') || (type === 'Deleted' && key === 'ns/o-0001') ? 0 : type === 'Replaced' ? 1 : 2;
  };
  assert.deepEqual(after.map(phase), after.map(phase).sort(), after.slice(0, 14).join(', '));
  assert.equal(cache.get('ns/o-0002'), undefined, 'o-0002 is gone');
  assert.equal(cache.size, relist.length);
  assert.deepEqual(cache.get('ns/o-0000')?.data, {});
});

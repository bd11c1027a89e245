// The heap as the sim's etcd quota: puts refused with etcd's words past a share of the heap limit,
// reads and deletes not, and puts taken again once objects are deleted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { HeapQuota, SPACE_EXCEEDED, type HeapReading } from '../../../../src/sim/store/heapQuota.ts';
import { CM, configMap, newCluster } from './helpers.ts';

const MB = 1024 * 1024;

/** A heap whose use the test sets, and full collections it runs. */
function fakeHeap(limit = 1000 * MB) {
  let used = 0;
  let collected: (() => void) | undefined;
  const heap: HeapReading = { limit, used: () => used, afterFullCollection: (l) => ((collected = l), () => (collected = undefined)) };
  return {
    heap,
    use(bytes: number) {
      used = bytes;
    },
    collect(live: number) {
      used = live;
      collected?.();
    },
  };
}

test('puts are refused past 75% of the heap limit live, or 90% with garbage, and taken again below 60%', () => {
  const h = fakeHeap();
  const told: (string | undefined)[] = [];
  const quota = new HeapQuota(h.heap, (p) => told.push(p));
  h.use(700 * MB);
  quota.admitPut();
  h.collect(760 * MB);
  assert.throws(() => quota.admitPut(), (e: unknown) => e instanceof ApiError && e.code === 500 && e.message === SPACE_EXCEEDED);
  assert.match(quota.problem()!, /database space exceeded: the heap holds 760 MB of its 1000 MB limit; writes are refused past 750 MB/);
  h.collect(650 * MB);
  assert.throws(() => quota.admitPut(), 'still past 60%');
  h.collect(500 * MB);
  quota.admitPut();
  assert.equal(quota.problem(), undefined);
  h.use(950 * MB);
  assert.throws(() => quota.admitPut(), 'garbage or not, 90% is too close to the limit');
  assert.equal(told.length, 3);
  assert.equal(told[1], undefined);
  quota.dispose();
});

test('a cluster past its heap quota refuses creates and growing updates; reads, deletes and shrinking updates go on', () => {
  const h = fakeHeap();
  const { cluster } = newCluster({ heap: h.heap });
  cluster.create(CM, 'default', configMap('a', undefined, { k: 'a long value' }));
  cluster.create(CM, 'default', configMap('b'));
  h.collect(800 * MB);
  const refused = (fn: () => unknown) => assert.throws(fn, (e: unknown) => e instanceof ApiError && e.code === 500 && e.message === SPACE_EXCEEDED);
  refused(() => cluster.create(CM, 'default', configMap('c')));
  refused(() => cluster.patch(CM, 'default', 'b', 'merge', { data: { more: 'data' } }));
  cluster.patch(CM, 'default', 'a', 'merge', { data: { k: 'short' } });
  assert.equal(cluster.get(CM, 'default', 'a').object.metadata.name, 'a');
  cluster.delete(CM, 'default', 'b');
  assert.match(cluster.heapProblem()!, /database space exceeded/);
  h.collect(100 * MB);
  cluster.create(CM, 'default', configMap('c'));
  assert.equal(cluster.heapProblem(), undefined);
});

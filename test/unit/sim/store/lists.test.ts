import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, isExpired } from '../../../../src/shared/apiError.ts';
import { CM, NS, configMap, newCluster } from './helpers.ts';

const names = (items: { object: { metadata: { name?: string } } }[]): string[] => items.map((i) => i.object.metadata.name ?? '');

test('one global resourceVersion rises with every write, across resources', () => {
  const { cluster } = newCluster();
  const start = cluster.resourceVersion;
  const a = cluster.create(CM, 'default', configMap('a'));
  const ns = cluster.create(NS, '', { metadata: { name: 'team' } });
  const b = cluster.create(CM, 'team', configMap('b'));
  assert.deepEqual([a.resourceVersion, ns.resourceVersion, b.resourceVersion], [start + 1, start + 2, start + 3]);
  assert.equal(a.object.metadata.resourceVersion, String(start + 1));
  assert.equal(cluster.list(CM, {}).resourceVersion, start + 3);
});

test('lists are sorted by namespace/name like etcd keys, and filtered by namespace', () => {
  const { cluster } = newCluster();
  cluster.create(NS, '', { metadata: { name: 'a-b' } });
  for (const [ns, n] of [['default', 'z'], ['default', 'b'], ['a-b', 'x'], ['kube-system', 'a']]) cluster.create(CM, ns ?? '', configMap(n ?? ''));
  assert.deepEqual(names(cluster.list(CM, {}).items), ['x', 'b', 'z', 'a']);
  assert.deepEqual(names(cluster.list(CM, { namespace: 'default' }).items), ['b', 'z']);
});

test('list with label and field selectors', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a', { app: 'web' }));
  cluster.create(CM, 'default', configMap('b', { app: 'db' }));
  cluster.create(CM, 'kube-system', configMap('c', { app: 'web' }));
  assert.deepEqual(names(cluster.list(CM, { labelSelector: 'app=web' }).items), ['a', 'c']);
  assert.deepEqual(names(cluster.list(CM, { labelSelector: 'app=web', fieldSelector: 'metadata.namespace!=default' }).items), ['c']);
  assert.deepEqual(names(cluster.list(CM, { fieldSelector: 'metadata.name=b' }).items), ['b']);
  assert.throws(() => cluster.list(CM, { fieldSelector: 'data.k=v' }), (e: unknown) => e instanceof ApiError && e.code === 400);
});

test('resourceVersion=N NotOlderThan answers the latest; N in the future is a 504 "Too large resource version"', () => {
  const { cluster } = newCluster();
  const a = cluster.create(CM, 'default', configMap('a'));
  cluster.create(CM, 'default', configMap('b'));
  const list = cluster.list(CM, { resourceVersion: String(a.resourceVersion) });
  assert.equal(list.resourceVersion, cluster.resourceVersion);
  assert.equal(list.items.length, 2);
  assert.throws(() => cluster.list(CM, { resourceVersion: String(cluster.resourceVersion + 10) }), (e: unknown) =>
    e instanceof ApiError && e.code === 504 && e.reason === 'Timeout' && /Too large resource version/.test(e.message));
});

test('resourceVersion=0 serves everything in one page (limit ignored, as from the watch cache)', () => {
  const { cluster } = newCluster();
  for (let i = 0; i < 5; i++) cluster.create(CM, 'default', configMap(`cm-${i}`));
  const list = cluster.list(CM, { resourceVersion: '0', limit: 2 });
  assert.equal(list.items.length, 5);
  assert.equal(list.continue, undefined);
});

test('Exact lists rebuild the state at that RV from history', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a', undefined, { v: '1' }));
  const rv = cluster.resourceVersion;
  cluster.update(CM, 'default', 'a', configMap('a', undefined, { v: '2' }));
  cluster.create(CM, 'default', configMap('b'));
  cluster.delete(CM, 'default', 'a');
  const past = cluster.list(CM, { resourceVersion: String(rv), resourceVersionMatch: 'Exact' });
  assert.equal(past.resourceVersion, rv);
  assert.deepEqual(names(past.items), ['a']);
  assert.deepEqual(past.items[0]?.object.data, { v: '1' });
  assert.deepEqual(names(cluster.list(CM, {}).items), ['b']);
});

test('an Exact list of a compacted RV is 410 Expired', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  const rv = cluster.resourceVersion;
  cluster.create(CM, 'default', configMap('b'));
  cluster.compact();
  assert.throws(() => cluster.list(CM, { resourceVersion: String(rv), resourceVersionMatch: 'Exact' }), (e: unknown) => isExpired(e) && (e as ApiError).code === 410);
});

test('an Exact list older than the watch-cache window is 410 Expired', () => {
  const { cluster } = newCluster({ watchCacheSize: 3 });
  cluster.create(CM, 'default', configMap('a'));
  const rv = cluster.resourceVersion;
  for (let i = 0; i < 5; i++) cluster.create(CM, 'default', configMap(`x${i}`));
  assert.throws(() => cluster.list(CM, { resourceVersion: String(rv), resourceVersionMatch: 'Exact' }), isExpired);
});

test('paging: limit + continue walks a consistent snapshot, with remainingItemCount', () => {
  const { cluster } = newCluster();
  for (let i = 0; i < 7; i++) cluster.create(CM, 'default', configMap(`cm-${i}`));
  const first = cluster.list(CM, { limit: 3 });
  assert.deepEqual(names(first.items), ['cm-0', 'cm-1', 'cm-2']);
  assert.equal(first.remainingItemCount, 4);
  assert.ok(first.continue);
  // Changes after the first page do not show up in later pages: the token pins the snapshot.
  cluster.create(CM, 'default', configMap('cm-3a'));
  cluster.delete(CM, 'default', 'cm-5');
  const second = cluster.list(CM, { limit: 3, continue: first.continue });
  assert.equal(second.resourceVersion, first.resourceVersion);
  assert.deepEqual(names(second.items), ['cm-3', 'cm-4', 'cm-5']);
  assert.equal(second.remainingItemCount, 1, 'counted in the snapshot, not now');
  const third = cluster.list(CM, { limit: 3, continue: second.continue });
  assert.deepEqual(names(third.items), ['cm-6']);
  assert.equal(third.continue, undefined);
  assert.equal(third.remainingItemCount, undefined);
});

test('a continue token whose RV was compacted is 410 Expired with the continue message', () => {
  const { cluster } = newCluster();
  for (let i = 0; i < 4; i++) cluster.create(CM, 'default', configMap(`cm-${i}`));
  const first = cluster.list(CM, { limit: 2 });
  cluster.create(CM, 'default', configMap('later'));
  cluster.compact();
  assert.throws(() => cluster.list(CM, { limit: 2, continue: first.continue }), (e: unknown) =>
    isExpired(e) && /continue parameter is too old/.test((e as ApiError).message));
});

test('a garbage continue token is a 400', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.list(CM, { continue: 'not-a-token' }), (e: unknown) => e instanceof ApiError && e.code === 400);
});

test('paging with a selector counts only matching items per page', () => {
  const { cluster } = newCluster();
  for (let i = 0; i < 6; i++) cluster.create(CM, 'default', configMap(`cm-${i}`, { even: String(i % 2 === 0) }));
  const first = cluster.list(CM, { limit: 2, labelSelector: 'even=true' });
  assert.deepEqual(names(first.items), ['cm-0', 'cm-2']);
  const second = cluster.list(CM, { limit: 2, labelSelector: 'even=true', continue: first.continue });
  assert.deepEqual(names(second.items), ['cm-4']);
  assert.equal(second.continue, undefined);
});

test('the list JSON is the envelope around the items\' cached JSON', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', configMap('a'));
  const parsed = JSON.parse(cluster.list(CM, { limit: 1 }).json());
  assert.equal(parsed.kind, 'ConfigMapList');
  assert.equal(parsed.apiVersion, 'v1');
  assert.equal(parsed.metadata.resourceVersion, String(cluster.resourceVersion));
  assert.equal(parsed.items[0].metadata.name, 'a');
});

test('malformed list options are answered as the API server answers them', () => {
  const { cluster } = newCluster();
  const answer = (request: Parameters<typeof cluster.list>[1]) => {
    try {
      cluster.list(CM, request);
    } catch (e) {
      const err = e as ApiError;
      return `${err.code} ${err.reason} ${err.message}`;
    }
    return 'listed';
  };
  assert.equal(answer({ resourceVersion: 'abc' }), '500  resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax');
  assert.equal(answer({ resourceVersionMatch: 'NotOlderThan' }), '422 Invalid ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
  assert.equal(answer({ resourceVersion: '0', resourceVersionMatch: 'Exact' }), '422 Invalid ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  assert.equal(answer({ continue: Buffer.from('{"v":"x"}').toString('base64url') }), '400 BadRequest invalid continue token: continue key is not valid: server does not recognize this encoded version x');
});

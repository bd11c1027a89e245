import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createIndexer } from '../../../src/informer/store.ts';
import type { Indexer } from '../../../src/informer/store.ts';
import type { DeepReadonly } from '../../../src/informer/readonly.ts';
import type { KubeObject } from '../../../src/shared/k8s.ts';
import { rig } from './fixtures/rig.ts';

// The cache keeps long values that several objects repeat once, and counts who holds them.

const CA_BUNDLE = `-----BEGIN CERTIFICATE-----\n${'MIIC5zCCAc+gAwIBAgIBATANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl'.repeat(20)}\n-----END CERTIFICATE-----\n`;

/** A ConfigMap as the server sends it: every object decoded from its own JSON text, so no two share a string. */
function decoded(namespace: string, name: string, data: Record<string, string>, annotations?: Record<string, string>): DeepReadonly<KubeObject> {
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name, ...(annotations ? { annotations } : {}) }, data });
  return JSON.parse(text) as DeepReadonly<KubeObject>;
}

/** A cached ConfigMap's data. */
function dataOf(o: DeepReadonly<KubeObject> | undefined): Readonly<Record<string, string>> {
  return (o as unknown as { data: Record<string, string> }).data;
}

function put(cache: Indexer, o: DeepReadonly<KubeObject>): void {
  cache.set(`${o.metadata.namespace}/${o.metadata.name}`, o);
}

describe('shared values in the cache', () => {
  it('a value repeated across objects is held once, and readers see ordinary equal objects', () => {
    const cache = createIndexer();
    const annotation = JSON.stringify({ spec: 'x'.repeat(80) });
    for (const ns of ['a', 'b', 'c']) put(cache, decoded(ns, 'kube-root-ca.crt', { 'ca.crt': CA_BUNDLE, short: 'same but short' }, { 'last-applied': annotation }));
    assert.deepEqual(cache.sharedValues(), { values: 2, references: 6, chars: CA_BUNDLE.length + annotation.length });
    const b = cache.get('b/kube-root-ca.crt')!;
    assert.deepEqual(b, decoded('b', 'kube-root-ca.crt', { 'ca.crt': CA_BUNDLE, short: 'same but short' }, { 'last-applied': annotation }));
    assert.equal(Object.isFrozen(dataOf(b)), false);
    assert.equal(typeof dataOf(b)['ca.crt'], 'string');
  });

  it('a replaced or deleted object gives its values back; the last holder takes a value out of the table', () => {
    const cache = createIndexer();
    const other = CA_BUNDLE.replace('BEGIN', 'BEGAN');
    put(cache, decoded('a', 'cm', { 'ca.crt': CA_BUNDLE }));
    put(cache, decoded('b', 'cm', { 'ca.crt': CA_BUNDLE }));
    put(cache, decoded('a', 'cm', { 'ca.crt': other }));
    assert.deepEqual(cache.sharedValues(), { values: 2, references: 2, chars: CA_BUNDLE.length + other.length });
    cache.delete('b/cm');
    assert.deepEqual(cache.sharedValues(), { values: 1, references: 1, chars: other.length });
    assert.equal(dataOf(cache.get('a/cm'))['ca.crt'], other);
    cache.delete('a/cm');
    assert.deepEqual(cache.sharedValues(), { values: 0, references: 0, chars: 0 });
  });

  it('the table does not grow with churn: a thousand updates with new values leave only the live ones', () => {
    const cache = createIndexer();
    for (let i = 0; i < 1000; i++) {
      const name = `cm-${i % 10}`;
      put(cache, decoded('ns', name, { config: `${'generation '.repeat(8)}${i}`, bundle: CA_BUNDLE }));
      if (i % 7 === 0) cache.delete(`ns/cm-${(i + 3) % 10}`);
    }
    const live = cache.list();
    const distinct = new Set(live.map((o) => dataOf(o).config));
    assert.deepEqual(cache.sharedValues(), {
      values: distinct.size + 1,
      references: live.length * 2,
      chars: [...distinct].reduce((n, v) => n + v!.length, 0) + CA_BUNDLE.length,
    });
    for (const key of cache.listKeys()) cache.delete(key);
    assert.deepEqual(cache.sharedValues(), { values: 0, references: 0, chars: 0 });
  });

  it('a reader that changes a cached object (against the rules) changes no other object, and the counts stay exact', () => {
    const cache = createIndexer();
    put(cache, decoded('a', 'cm', { 'ca.crt': CA_BUNDLE }));
    put(cache, decoded('b', 'cm', { 'ca.crt': CA_BUNDLE }));
    (dataOf(cache.get('a/cm')) as Record<string, string>)['ca.crt'] = 'changed';
    assert.equal(dataOf(cache.get('b/cm'))['ca.crt'], CA_BUNDLE);
    cache.delete('a/cm');
    assert.deepEqual(cache.sharedValues(), { values: 1, references: 1, chars: CA_BUNDLE.length });
    cache.delete('b/cm');
    assert.deepEqual(cache.sharedValues(), { values: 0, references: 0, chars: 0 });
  });

  it('frozen objects (a backend sharing its own) are cached as they are', () => {
    const cache = createIndexer();
    const frozen = decoded('a', 'cm', { 'ca.crt': CA_BUNDLE });
    Object.freeze(dataOf(frozen));
    put(cache, frozen);
    put(cache, decoded('b', 'cm', { 'ca.crt': CA_BUNDLE }));
    assert.equal(cache.get('a/cm'), frozen);
    assert.deepEqual(cache.sharedValues(), { values: 1, references: 1, chars: CA_BUNDLE.length });
    cache.delete('a/cm');
    cache.delete('b/cm');
    assert.deepEqual(cache.sharedValues(), { values: 0, references: 0, chars: 0 });
  });

  it('values that look alike to the table (same length, differing only near the start) stay correct', () => {
    const cache = createIndexer();
    const base = 'v'.repeat(100);
    const names = 'abcdefghijklmnopqrst'.split('');
    for (const c of names) put(cache, decoded('ns', c, { value: `${c}${base.slice(1)}` }));
    for (const c of names) assert.equal(dataOf(cache.get(`ns/${c}`)).value, `${c}${base.slice(1)}`);
    for (const c of names) put(cache, decoded('ns2', c, { value: `${c}${base.slice(1)}` }));
    for (const c of names) cache.delete(`ns/${c}`);
    for (const c of names) assert.equal(dataOf(cache.get(`ns2/${c}`)).value, `${c}${base.slice(1)}`);
    for (const c of names) cache.delete(`ns2/${c}`);
    assert.deepEqual(cache.sharedValues(), { values: 0, references: 0, chars: 0 });
  });

  it('can be turned off', () => {
    const cache = createIndexer({}, { shareValues: false });
    put(cache, decoded('a', 'cm', { 'ca.crt': CA_BUNDLE }));
    put(cache, decoded('b', 'cm', { 'ca.crt': CA_BUNDLE }));
    assert.deepEqual(cache.sharedValues(), { values: 0, references: 0, chars: 0 });
  });

  it('a thousand ConfigMaps carrying the same 16 KB bundle cost its bytes once', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const bundle = 'Q'.repeat(16 * 1024);
    const cache = createIndexer();
    const texts = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name: `cm-${i}` }, data: { bundle } }));
    gc();
    const before = process.memoryUsage().heapUsed;
    for (const text of texts) put(cache, JSON.parse(text) as DeepReadonly<KubeObject>);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // Each copy kept would be 16 MB in all.
    assert.ok(grown < 4 * 1024 * 1024, `the cache grew by ${(grown / 1048576).toFixed(1)} MB`);
    assert.equal(cache.size, 1000);
  });

  it('a relist that replaces every object leaves only the new values in the table', async () => {
    const r = rig({}, { expiredForm: 'http' });
    const value = (v: string): string => `${v}:${'payload '.repeat(10)}`;
    for (let i = 0; i < 4; i++) r.source.create({ ...decoded('ns', `o${i}`, { config: value('old') }) } as KubeObject);
    r.informer.run();
    await r.tick();
    assert.deepEqual(r.informer.indexer.sharedValues(), { values: 1, references: 4, chars: value('old').length });
    r.source.dropWatches(new Error('connection reset'));
    for (let i = 0; i < 3; i++) r.source.update({ ...decoded('ns', `o${i}`, { config: value('new') }) } as KubeObject);
    r.source.delete('ns', 'o3');
    r.source.compact();
    await r.tick(5000);
    await r.tick(5000);
    assert.equal(r.informer.stats().relists, 1);
    assert.equal(r.informer.indexer.size, 3);
    assert.deepEqual(r.informer.indexer.sharedValues(), { values: 1, references: 3, chars: value('new').length });
  });
});

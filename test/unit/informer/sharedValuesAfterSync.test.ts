import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createIndexer } from '../../../src/informer/store.ts';
import type { DeepReadonly } from '../../../src/informer/readonly.ts';
import type { KubeObject } from '../../../src/shared/k8s.ts';
import { rig } from './fixtures/rig.ts';

// The first list's objects reach the shared values table after the sync, a few with each later
// write: the table's walk no longer runs on every listed object while the first sync waits on it.
// Counted exactly all the same, whatever happens to those objects in between.

const BUNDLE = `-----BEGIN CERTIFICATE-----\n${'MIIC5zCCAc+gAwIBAgIBATANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl'.repeat(20)}\n-----END CERTIFICATE-----\n`;

/** A ConfigMap whose data counts how often it is read (the table's walk reads every key). */
function watched(name: string, reads: { n: number }): DeepReadonly<KubeObject> {
  const data = new Proxy({ 'ca.crt': BUNDLE } as Record<string, string>, {
    get: (target, key) => (reads.n++, target[key as string]),
    ownKeys: (target) => (reads.n++, Reflect.ownKeys(target)),
  });
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name }, data } as unknown as DeepReadonly<KubeObject>;
}

function configMap(name: string, value: string): DeepReadonly<KubeObject> {
  return JSON.parse(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name }, data: { 'ca.crt': value } })) as DeepReadonly<KubeObject>;
}

describe('the first list in the shared values table', () => {
  it('is not walked while it is listed, then is, by the writes that follow', () => {
    const cache = createIndexer();
    const reads = { n: 0 };
    for (let i = 0; i < 20; i++) cache.set(`ns/l${i}`, watched(`l${i}`, reads), true);
    assert.equal(reads.n, 0, 'the first list walked for the table as it was cached');
    cache.set('ns/w0', configMap('w0', BUNDLE));
    assert.ok(reads.n > 0, 'a later write takes some of the list into the table');
    // Read at any time, the table counts every cached holder.
    assert.deepEqual(cache.sharedValues(), { values: 1, references: 21, chars: BUNDLE.length });
  });

  it('counts exactly when listed objects are replaced or deleted before their turn', () => {
    const cache = createIndexer();
    const other = BUNDLE.replace('BEGIN', 'BEGAN');
    for (let i = 0; i < 30; i++) cache.set(`ns/l${i}`, configMap(`l${i}`, BUNDLE), true);
    cache.delete('ns/l25');
    cache.set('ns/l26', configMap('l26', other));
    cache.delete('ns/l27');
    assert.deepEqual(cache.sharedValues(), { values: 2, references: 28, chars: BUNDLE.length + other.length });
    for (let i = 0; i < 30; i++) cache.delete(`ns/l${i}`);
    assert.deepEqual(cache.sharedValues(), { values: 0, references: 0, chars: 0 });
    assert.equal(cache.size, 0);
  });

  it('an informer hands out the listed objects as listed, and its table counts them after the sync', async () => {
    const r = rig({});
    for (let i = 0; i < 12; i++) r.source.create({ ...configMap(`o${i}`, BUNDLE) } as KubeObject);
    r.informer.run();
    await r.tick();
    assert.equal(r.informer.indexer.size, 12);
    assert.deepEqual((r.informer.indexer.get('ns/o3') as unknown as { data: unknown }).data, { 'ca.crt': BUNDLE });
    assert.deepEqual(r.informer.indexer.sharedValues(), { values: 1, references: 12, chars: BUNDLE.length });
    r.source.delete('ns', 'o3');
    await r.tick();
    assert.deepEqual(r.informer.indexer.sharedValues(), { values: 1, references: 11, chars: BUNDLE.length });
  });
});

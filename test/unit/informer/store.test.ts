import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createIndexer, NAMESPACE_INDEX } from '../../../src/informer/store.ts';
import type { DeepReadonly } from '../../../src/informer/readonly.ts';
import type { KubeObject } from '../../../src/shared/k8s.ts';
import { obj } from './fixtures/fakeSource.ts';

const ro = (o: KubeObject): DeepReadonly<KubeObject> => o as DeepReadonly<KubeObject>;
const byApp = { app: (o: DeepReadonly<KubeObject>) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) };

describe('indexer', () => {
  it('stores objects by key and returns the very same object', () => {
    const idx = createIndexer();
    const a = ro(obj('ns1', 'a'));
    idx.set('ns1/a', a);
    assert.equal(idx.get('ns1/a'), a);
    assert.equal(idx.size, 1);
    assert.deepEqual(idx.listKeys(), ['ns1/a']);
  });

  it('keeps the namespace index in step with moves and deletes', () => {
    const idx = createIndexer();
    idx.set('ns1/a', ro(obj('ns1', 'a')));
    idx.set('ns1/b', ro(obj('ns1', 'b')));
    idx.set('ns2/c', ro(obj('ns2', 'c')));
    assert.deepEqual(idx.indexKeys(NAMESPACE_INDEX, 'ns1').sort(), ['ns1/a', 'ns1/b']);
    idx.delete('ns1/a');
    assert.deepEqual(idx.indexKeys(NAMESPACE_INDEX, 'ns1'), ['ns1/b']);
    idx.delete('ns1/b');
    assert.deepEqual(idx.listIndexFuncValues(NAMESPACE_INDEX), ['ns2']);
  });

  it('the namespace index built at its first read reflects every earlier write, and stays in step after', () => {
    const idx = createIndexer();
    idx.set('ns1/a', ro(obj('ns1', 'a')));
    idx.set('ns1/b', ro(obj('ns1', 'b')));
    idx.delete('ns1/a');
    idx.set('c', ro(obj('', 'c')));
    assert.deepEqual(idx.listIndexFuncValues(NAMESPACE_INDEX).sort(), ['', 'ns1']);
    assert.deepEqual(idx.indexKeys(NAMESPACE_INDEX, 'ns1'), ['ns1/b']);
    idx.set('ns2/d', ro(obj('ns2', 'd')));
    idx.delete('ns1/b');
    assert.deepEqual(idx.listIndexFuncValues(NAMESPACE_INDEX).sort(), ['', 'ns2']);
    assert.deepEqual(idx.byIndex(NAMESPACE_INDEX, 'ns2').map((o) => o.metadata.name), ['d']);
  });

  it('re-indexes an object whose index value changed on update', () => {
    const idx = createIndexer(byApp);
    idx.set('ns/a', ro(obj('ns', 'a', {}, { app: 'web' })));
    idx.set('ns/a', ro(obj('ns', 'a', {}, { app: 'db' })));
    assert.deepEqual(idx.indexKeys('app', 'web'), []);
    assert.deepEqual(idx.byIndex('app', 'db').map((o) => o.metadata.name), ['a']);
    idx.set('ns/a', ro(obj('ns', 'a')));
    assert.deepEqual(idx.listIndexFuncValues('app'), []);
  });

  it('indexes objects already cached when an indexer is added later', () => {
    const idx = createIndexer();
    idx.set('ns/a', ro(obj('ns', 'a', {}, { app: 'web' })));
    idx.addIndexers(byApp);
    assert.deepEqual(idx.indexKeys('app', 'web'), ['ns/a']);
  });

  it('supports multi-valued index functions', () => {
    const idx = createIndexer({ labels: (o) => Object.keys(o.metadata.labels ?? {}) });
    idx.set('ns/a', ro(obj('ns', 'a', {}, { x: '1', y: '2' })));
    idx.set('ns/b', ro(obj('ns', 'b', {}, { y: '3' })));
    assert.deepEqual(idx.indexKeys('labels', 'y').sort(), ['ns/a', 'ns/b']);
    idx.set('ns/a', ro(obj('ns', 'a', {}, { x: '1' })));
    assert.deepEqual(idx.indexKeys('labels', 'y'), ['ns/b']);
  });

  it('rejects unknown and duplicate index names', () => {
    const idx = createIndexer(byApp);
    assert.throws(() => idx.byIndex('nope', 'x'), /no indexer named "nope"/);
    assert.throws(() => idx.addIndexers(byApp), /already exists/);
  });
});

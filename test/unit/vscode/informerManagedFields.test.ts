import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { FakeClock } from '../../../src/shared/clock.ts';
import { objectDocumentText } from '../../../src/vscode/documents/objectDocument.ts';
import { Lab } from '../../../src/vscode/model/lab.ts';
import type { InformerPolicy } from '../../../src/vscode/model/informerPolicy.ts';
import { CONFIGMAPS, FakeApi, fakeBackend, settle } from './fakeBackend.ts';

const MANAGED = [{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:k': {} } } }];

async function labWith(api: FakeApi, policy?: InformerPolicy) {
  const lab = new Lab({ clock: new FakeClock(1_700_000_000_000), createBackend: async () => fakeBackend(api), maxTimelineEvents: 1000, ...(policy ? { informerPolicy: () => policy } : {}) });
  const cluster = await lab.connect({ kind: 'kubeconfig', context: 'test' }, 'test');
  const informer = lab.startInformer(cluster.id, { resource: CONFIGMAPS, namespace: '', labelSelector: '' });
  assert.equal(await informer.informer.waitForSync(), true);
  await settle();
  return { lab, informer };
}

describe('managedFields in the view’s informers', () => {
  it('are dropped by default: the cache, the tree’s entries and the document hold none, and the document says why', async () => {
    const api = new FakeApi();
    api.put('default', 'a', { k: 'v1' }, { metadata: { managedFields: MANAGED } });
    const { lab, informer } = await labWith(api);
    api.put('default', 'a', { k: 'v2' }, { metadata: { managedFields: MANAGED } });
    await settle();
    assert.equal(informer.informer.indexer.get('default/a')?.metadata.managedFields, undefined);
    assert.equal(informer.entry('default/a')?.object.metadata.managedFields, undefined);
    assert.equal((informer.entry('default/a')?.object.data as { k?: string } | undefined)?.k, 'v2');
    const doc = objectDocumentText(lab, { informerId: informer.id, resource: 'configmaps', key: 'default/a' }, false);
    const [header, note] = doc.split('\n');
    assert.match(header ?? '', /^# default\/a — live from informer configmaps/);
    assert.match(note ?? '', /^# metadata\.managedFields: dropped by the informer .*controllerLab\.informer\.keepManagedFields/);
    assert.doesNotMatch(doc, /kubectl-client-side-apply/);
    const recorded = objectDocumentText(lab, { informerId: informer.id, resource: 'configmaps', key: 'default/a', resourceVersion: '11' }, false);
    assert.match(recorded, /managedFields: dropped/);
    await lab.dispose();
  });

  it('are kept, and shown in the document without the note, when the setting asks for them', async () => {
    const api = new FakeApi();
    api.put('default', 'a', { k: 'v1' }, { metadata: { managedFields: MANAGED } });
    const { lab, informer } = await labWith(api, { keepManagedFields: true, maxObjects: 0 });
    assert.deepEqual(informer.informer.indexer.get('default/a')?.metadata.managedFields, MANAGED);
    const doc = objectDocumentText(lab, { informerId: informer.id, resource: 'configmaps', key: 'default/a' }, false);
    assert.doesNotMatch(doc, /dropped/);
    assert.match(doc, /managedFields:\n\s+- manager: kubectl-client-side-apply/);
    await lab.dispose();
  });
});

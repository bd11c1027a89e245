import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSharedInformer, dropManagedFields } from '../../../src/informer/index.ts';
import { loadCluster } from '../../../src/kube/cluster.ts';
import type { ApiResource, KubeObject } from '../../../src/shared/k8s.ts';
import { configMap, scratchDir, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';

const configmaps: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
const PATH = '/api/v1/namespaces/team-a/configmaps';
const MANAGED = [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }];

test('a large list over HTTP is decoded as it arrives, each item transformed once, and reaches the cache whole', async (t) => {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }) });
  t.after(async () => {
    cluster.close();
    await api.close();
    cleanup();
  });
  // Names and data with quotes, brackets and multi-byte characters, in a body of many socket reads.
  const items = Array.from({ length: 16000 }, (_, i) => {
    const cm = configMap(`cm-${i}`, String(100 + i), 'team-a') as KubeObject;
    return { ...cm, metadata: { ...cm.metadata, managedFields: MANAGED }, data: { text: `"]}{[ é 日本 🙂 \\" ${i}` } };
  });
  let transformed = 0;
  let decodedBeforeTheEnd = 0;
  api.route(PATH, (req, res) => {
    if (req.url?.includes('watch=')) return void res.writeHead(200, { 'Content-Type': 'application/json' }).flushHeaders();
    // Half the body, then a pause until the client has decoded something (2 s at most), then the rest.
    const body = Buffer.from(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '5000' }, items }));
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.write(body.subarray(0, body.length >> 1));
    const started = Date.now();
    const rest = setInterval(() => {
      if (transformed === 0 && Date.now() - started < 2000) return;
      clearInterval(rest);
      decodedBeforeTheEnd = transformed;
      res.end(body.subarray(body.length >> 1));
    }, 5);
  });
  const informer = createSharedInformer({
    name: 'configmaps',
    listerWatcher: cluster.listerWatcher(configmaps, { namespace: 'team-a' }),
    transform: (o) => {
      transformed++;
      return dropManagedFields(o);
    },
  });
  informer.run();
  t.after(() => informer.stop());
  assert.equal(await informer.waitForSync(), true);
  assert.equal(informer.indexer.list().length, 16000);
  assert.equal(transformed, 16000, 'once per object');
  assert.ok(decodedBeforeTheEnd > 0, `objects are decoded while the list still arrives (${decodedBeforeTheEnd} before the second half)`);
  const last = informer.indexer.get('team-a/cm-15999');
  assert.deepEqual(last?.data, { text: '"]}{[ é 日本 🙂 \\" 15999' });
  assert.equal(last?.metadata.managedFields, undefined);
  assert.equal(informer.lastSyncResourceVersion(), '5000');
});

test('an informer that drops managedFields gets them cut from list items and watch events as the server sent them, and nothing else', async (t) => {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }) });
  t.after(async () => {
    cluster.close();
    await api.close();
    cleanup();
  });
  // Fields that look like managedFields but are not metadata's: they stay.
  const widget = (name: string, rv: string): KubeObject => {
    const cm = configMap(name, rv, 'team-a') as KubeObject;
    return { ...cm, metadata: { managedFields: MANAGED, ...cm.metadata, annotations: { note: '"managedFields":[]' } }, data: { managedFields: 'kept', text: 'é 🙂 \\"' } };
  };
  api.route(PATH, (req, res) => {
    if (!req.url?.includes('watch=')) {
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '10' }, items: [widget('listed', '5')] }));
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write(`${JSON.stringify({ type: 'ADDED', object: widget('watched', '11') })}\n`);
  });
  const informer = createSharedInformer({ name: 'configmaps', listerWatcher: cluster.listerWatcher(configmaps, { namespace: 'team-a' }), transform: dropManagedFields });
  const seen: KubeObject[] = [];
  informer.addEventHandler({ onAdd: (o) => void seen.push(o as KubeObject), onUpdate: () => {}, onDelete: () => {} });
  informer.run();
  t.after(() => informer.stop());
  assert.equal(await informer.waitForSync(), true);
  for (let i = 0; i < 200 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(seen.map((o) => o.metadata.name), ['listed', 'watched']);
  for (const o of seen) {
    const { managedFields: _dropped, ...metadata } = widget(o.metadata.name!, o.metadata.resourceVersion!).metadata;
    assert.deepEqual(o, { ...widget(o.metadata.name!, o.metadata.resourceVersion!), metadata }, o.metadata.name);
    assert.deepEqual(informer.indexer.get(`team-a/${o.metadata.name}`), o);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dropManagedFields } from '../../../src/informer/index.ts';
import { loadCluster } from '../../../src/kube/cluster.ts';
import type { ApiResource, KubeObject } from '../../../src/shared/k8s.ts';
import { configMap, scratchDir, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';

// A small list is parsed at once, a large one as it streams in: either way the caller gets the
// same list, the transform applied once per item, and the same errors.

const configmaps: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
const PATH = '/api/v1/namespaces/team-a/configmaps';
const MANAGED = [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }];

function items(n: number): KubeObject[] {
  return Array.from({ length: n }, (_, i) => {
    const cm = configMap(`cm-${i}`, String(100 + i), 'team-a') as KubeObject;
    return { ...cm, metadata: { ...cm.metadata, managedFields: MANAGED }, data: { text: `"]}{[ é 🙂 \\" ${i}`, pad: 'x'.repeat(200) } };
  });
}

async function serving(body: string | ((n: number) => string)): Promise<{ lw: ReturnType<ReturnType<typeof loadCluster>['listerWatcher']>; close: () => Promise<void> }> {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }) });
  api.route(PATH, (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(typeof body === 'string' ? body : body(0)));
  return {
    lw: cluster.listerWatcher(configmaps, { namespace: 'team-a' }),
    close: async () => {
      cluster.close();
      await api.close();
      cleanup();
    },
  };
}

for (const [size, n] of [['small (parsed whole)', 20], ['large (streamed)', 12000]] as const) {
  test(`a ${size} list: every item, transformed once, and the list's metadata`, async (t) => {
    const listed = items(n);
    const s = await serving(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '77', continue: 'next"]' }, items: listed }));
    t.after(s.close);
    let calls = 0;
    const list = await s.lw.list({}, undefined, (o) => {
      calls++;
      return dropManagedFields(o);
    });
    assert.equal(calls, n);
    assert.equal(list.metadata.resourceVersion, '77');
    assert.equal(list.metadata.continue, 'next"]');
    assert.deepEqual(list.items, listed.map((o) => dropManagedFields(o)));
  });
}

test('a small body that is not a list, or lists nothing, reads as the streamed one does', async (t) => {
  const s = await serving(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '3' }, items: null }));
  t.after(s.close);
  const list = await s.lw.list({});
  assert.deepEqual(list.items, []);
  assert.equal(list.metadata.resourceVersion, '3');
});

test('a small body that is not JSON is an error naming the path, and a transform that throws is the transform\'s error', async (t) => {
  const bad = await serving('{"kind":"ConfigMapList","items":[{"metadata":{"name":"a"}},');
  t.after(bad.close);
  await assert.rejects(bad.lw.list({}), (err: Error) => err.message.includes(`the server sent invalid JSON for ${PATH}`));
  const good = await serving(JSON.stringify({ kind: 'ConfigMapList', metadata: { resourceVersion: '1' }, items: items(2) }));
  t.after(good.close);
  await assert.rejects(
    good.lw.list({}, undefined, () => {
      throw new Error('transform says no');
    }),
    /transform says no/,
  );
});

// @kubernetes/client-node's own informer (makeInformer) against `controller-lab sim`: after writes,
// a dropped watch and a compaction (so its resume gets 410 and it must relist), its cache must equal
// the sim's state, object for object and resourceVersion for resourceVersion.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { rawRequest, startSimProcess, waitForNamespaceDefaults, type SimProcess } from './simProcess.ts';

let sim: SimProcess;

before(async () => {
  sim = await startSimProcess();
});

after(async () => {
  assert.equal(await sim.stop(), 0);
});

const NS = 'informed';

async function simState(): Promise<Map<string, string>> {
  const r = await rawRequest(sim, 'GET', `/api/v1/namespaces/${NS}/configmaps`);
  assert.equal(r.status, 200, r.body);
  const list = JSON.parse(r.body) as { items: V1ConfigMap[] };
  return new Map(list.items.map((i) => [i.metadata!.name!, i.metadata!.resourceVersion!]));
}

function cacheState(objects: readonly V1ConfigMap[]): Map<string, string> {
  return new Map(objects.map((i) => [i.metadata!.name!, i.metadata!.resourceVersion!]));
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number, describe: () => Promise<string>): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) assert.fail(`not converged after ${timeoutMs} ms: ${await describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('client-node makeInformer ends with the sim state', async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(sim.kubeconfigPath);
  const api = kc.makeApiClient(CoreV1Api);
  await api.createNamespace({ body: { metadata: { name: NS } } });
  // The namespace's CA ConfigMap (the controller manager's) is one more object for the informer.
  await waitForNamespaceDefaults(sim, NS);
  for (let i = 0; i < 5; i++) await api.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: `seed-${i}` }, data: { i: String(i) } } });

  const informer = makeInformer(kc, `/api/v1/namespaces/${NS}/configmaps`, () => api.listNamespacedConfigMap({ namespace: NS }));
  const seen = { add: 0, update: 0, delete: 0, error: 0 };
  let stopped = false;
  informer.on('add', () => seen.add++);
  informer.on('update', () => seen.update++);
  informer.on('delete', () => seen.delete++);
  informer.on('error', () => {
    seen.error++;
    // client-node stops on error; restart like its docs say to.
    setTimeout(() => {
      if (!stopped) void informer.start();
    }, 100);
  });
  await informer.start();
  try {
    await eventually(async () => informer.list(NS).length === 6, 5000, async () => `cache has ${informer.list(NS).length}`);

    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) writes.push(api.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: `cm-${i}` } } }));
    await Promise.all(writes);
    for (let i = 0; i < 10; i++) {
      // client-node 2.x sends a JSON patch (application/json-patch+json) by default.
      await api.patchNamespacedConfigMap({ namespace: NS, name: `cm-${i}`, body: [{ op: 'add', path: '/data', value: { v: '2' } }] });
    }
    // Drop every watch, write while it reconnects, then compact: a resume from an old RV gets 410.
    await rawRequest(sim, 'POST', '/controller-lab/admin/drop-watches', { body: '{}', headers: { 'Content-Type': 'application/json' } });
    for (let i = 0; i < 5; i++) await api.deleteNamespacedConfigMap({ namespace: NS, name: `seed-${i}` });
    await rawRequest(sim, 'POST', '/controller-lab/admin/compact', { body: '{}', headers: { 'Content-Type': 'application/json' } });
    await rawRequest(sim, 'POST', '/controller-lab/admin/drop-watches', { body: '{}', headers: { 'Content-Type': 'application/json' } });
    await api.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'last' } } });

    const expected = await simState();
    assert.equal(expected.size, 22);
    await eventually(
      async () => JSON.stringify([...cacheState(informer.list(NS))].sort()) === JSON.stringify([...expected].sort()),
      15_000,
      async () => `cache ${JSON.stringify([...cacheState(informer.list(NS))].sort())} vs sim ${JSON.stringify([...expected].sort())}`,
    );
    assert.ok(seen.add >= 22, `adds seen: ${seen.add}`);
    assert.ok(seen.update >= 10, `updates seen: ${seen.update}`);
  } finally {
    stopped = true;
    await informer.stop();
  }
});

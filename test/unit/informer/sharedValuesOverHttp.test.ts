import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSharedInformer } from '../../../src/informer/index.ts';
import type { SharedIndexInformer } from '../../../src/informer/index.ts';
import { loadCluster } from '../../../src/kube/index.ts';
import type { Cluster } from '../../../src/kube/index.ts';
import { createSimCluster } from '../../../src/sim/simCluster.ts';
import type { SimClusterApi } from '../../../src/sim/simCluster.ts';
import { startSimServer } from '../../../src/sim/server/simServer.ts';
import type { SimServerHandle } from '../../../src/sim/server/simServer.ts';
import type { ApiResource, KubeObject } from '../../../src/shared/k8s.ts';

// What a cluster repeats in every namespace, as an informer reads it over HTTPS from the simulated
// cluster: kube-root-ca.crt (the CA bundle and its description annotation) is cached once.

const CONFIGMAPS: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const TEAMS = ['team-a', 'team-b', 'team-c', 'team-d', 'team-e'];

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('shared values over HTTP', () => {
  let sim: SimClusterApi;
  let server: SimServerHandle;
  let cluster: Cluster;
  let informer: SharedIndexInformer;
  const rootCas = (): KubeObject[] => informer.indexer.list().filter((o) => o.metadata.name === 'kube-root-ca.crt') as KubeObject[];

  before(async () => {
    sim = createSimCluster();
    server = await startSimServer(sim);
    for (const name of TEAMS) sim.create(NAMESPACES, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    cluster = loadCluster({ kubeconfig: server.kubeconfigPath });
    informer = createSharedInformer<KubeObject>({ name: 'configmaps', listerWatcher: cluster.listerWatcher(CONFIGMAPS) });
    informer.run();
    await informer.waitForSync();
  });

  after(async () => {
    informer.stop();
    await server.stop();
    await sim.close();
  });

  it('keeps the CA bundle every namespace carries once, and hands out objects equal to what the server serves', async () => {
    await until('kube-root-ca.crt in every team namespace', () => TEAMS.every((ns) => informer.indexer.has(`${ns}/kube-root-ca.crt`)));
    const cached = rootCas();
    const bundle = cached[0]!['data'] as Record<string, string>;
    const description = Object.values(cached[0]!.metadata.annotations ?? {})[0]!;
    // Each root CA ConfigMap holds two long values (the bundle, the description): both shared.
    assert.deepEqual(informer.indexer.sharedValues(), {
      values: 2,
      references: 2 * cached.length,
      chars: bundle['ca.crt']!.length + description.length,
    });
    for (const ns of TEAMS) {
      const served = await cluster.request<KubeObject>(`/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`);
      assert.deepEqual(informer.indexer.get(`${ns}/kube-root-ca.crt`), served);
    }
  });

  it('gives a namespace’s values back when its ConfigMap goes away', async () => {
    const before = rootCas().length;
    sim.delete(NAMESPACES, '', 'team-e');
    await until('team-e’s ConfigMap to leave the cache', () => !informer.indexer.has('team-e/kube-root-ca.crt'));
    assert.equal(informer.indexer.sharedValues().references, 2 * (before - 1));
  });
});

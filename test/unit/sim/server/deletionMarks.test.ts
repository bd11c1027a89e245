// What a delete writes on an object its finalizers hold, as kube-apiserver writes it: a grace
// period only for Pods on a node (0 for every other kind whatever was asked, and for a Pod no node
// runs), a second delete that may only shorten a Pod's period, and a second delete whose
// propagation policy swaps the garbage collector's finalizer (Background takes it away).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';
const HOLD = ['example.com/hold'];

async function create(path: string, body: object): Promise<void> {
  const r = await call(suite.server, 'POST', path, { body });
  assert.equal(r.status, 201, r.body);
}
const pod = (name: string, nodeName?: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, finalizers: HOLD }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...(nodeName ? { nodeName } : {}) } });
const meta = async (method: string, path: string) => (await call(suite.server, method, path)).json().metadata;

describe('deletion marks', () => {
  it('a ConfigMap held by a finalizer: period 0, whatever the request asked', async () => {
    await create(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: HOLD } });
    const m = await meta('DELETE', `${CMS}/held?gracePeriodSeconds=30`);
    assert.equal(m.deletionGracePeriodSeconds, 0);
  });

  it('a Pod on no node: period 0; a Pod on a node: the period asked, then only shorter ones', async () => {
    await create(PODS, pod('unbound'));
    assert.equal((await meta('DELETE', `${PODS}/unbound?gracePeriodSeconds=30`)).deletionGracePeriodSeconds, 0);
    await create(PODS, pod('bound', 'node-1'));
    const first = await meta('DELETE', `${PODS}/bound?gracePeriodSeconds=60`);
    assert.equal(first.deletionGracePeriodSeconds, 60);
    assert.equal((await meta('DELETE', `${PODS}/bound?gracePeriodSeconds=90`)).deletionGracePeriodSeconds, 60, 'a longer period is ignored');
    const shorter = await meta('DELETE', `${PODS}/bound?gracePeriodSeconds=10`);
    assert.equal(shorter.deletionGracePeriodSeconds, 10);
    assert.equal(Date.parse(first.deletionTimestamp) - Date.parse(shorter.deletionTimestamp), 50_000, 'due 50 s sooner');
  });

  it('a second delete with another propagation policy swaps the garbage collector\'s finalizer (the API server alone)', async () => {
    suite.cluster.setDeletionControllers(false);
    try {
      await create(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'policy', finalizers: HOLD } });
      assert.deepEqual((await meta('DELETE', `${CMS}/policy?propagationPolicy=Foreground`)).finalizers, [...HOLD, 'foregroundDeletion']);
      assert.deepEqual((await meta('DELETE', `${CMS}/policy?propagationPolicy=Orphan`)).finalizers, [...HOLD, 'orphan']);
      assert.deepEqual((await meta('DELETE', `${CMS}/policy?propagationPolicy=Background`)).finalizers, HOLD);
      assert.deepEqual((await meta('GET', `${CMS}/policy`)).finalizers, HOLD);
    } finally {
      suite.cluster.setDeletionControllers(true);
    }
  });

  it('with the sim\'s garbage collector, a second Orphan delete orphans at once and leaves no finalizer waiting', async () => {
    await create(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gc-policy', finalizers: HOLD } });
    await meta('DELETE', `${CMS}/gc-policy`);
    assert.deepEqual((await meta('DELETE', `${CMS}/gc-policy?propagationPolicy=Orphan`)).finalizers, HOLD);
  });

  it('a deletecollection answers the list as it was before, an object a finalizer holds unmarked', async () => {
    await create(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'batch-held', labels: { batch: 'x' }, finalizers: HOLD } });
    await create(CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'batch-free', labels: { batch: 'x' } } });
    const r = await call(suite.server, 'DELETE', `${CMS}?labelSelector=batch%3Dx`);
    assert.equal(r.status, 200, r.body);
    const items = r.json().items as { metadata: { name: string; deletionTimestamp?: string } }[];
    assert.deepEqual(items.map((i) => [i.metadata.name, i.metadata.deletionTimestamp]), [['batch-free', undefined], ['batch-held', undefined]]);
    assert.ok((await meta('GET', `${CMS}/batch-held`)).deletionTimestamp, 'the held one is marked all the same');
  });
});

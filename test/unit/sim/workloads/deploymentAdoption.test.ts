// A Deployment claims ReplicaSets as kube-controller-manager's does: one made over a ReplicaSet
// orphaned from an earlier Deployment with the same selector and template adopts it (a controller
// reference to the new Deployment) rather than making a second (the e2e "test Deployment
// ReplicaSet orphaning and adoption regarding controllerRef").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { httpWorkloadLab } from './httpWorkloadLab.ts';

const lab = httpWorkloadLab();
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const RS = '/apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3Dadopt';

interface RsList { items: { metadata: { name: string; uid: string; ownerReferences?: { uid: string; controller?: boolean }[] } }[] }
const deployment = (name: string) => ({
  metadata: { name },
  spec: { replicas: 1, selector: { matchLabels: { app: 'adopt' } }, template: { metadata: { labels: { app: 'adopt' } }, spec: { containers: [{ name: 'c', image: 'httpd' }] } } },
});

describe('a Deployment over an orphaned ReplicaSet', () => {
  it('adopts it instead of making another', async () => {
    const first = await call(lab.server, 'POST', DEPLOYMENTS, { body: deployment('orphaner') });
    assert.equal(first.status, 201, first.body);
    const made = await lab.until<RsList>(RS, (l) => l.items.length === 1);
    assert.equal((await call(lab.server, 'DELETE', `${DEPLOYMENTS}/orphaner`, { body: { propagationPolicy: 'Orphan' } })).status, 200);
    await lab.until<RsList>(RS, (l) => l.items.length === 1 && !l.items[0]!.metadata.ownerReferences);
    const second = await call(lab.server, 'POST', DEPLOYMENTS, { body: deployment('adopter') });
    assert.equal(second.status, 201, second.body);
    const adopted = await lab.until<RsList>(RS, (l) => l.items.some((rs) => rs.metadata.ownerReferences?.some((r) => r.controller)));
    for (let i = 0; i < 100; i++) {
      lab.clock.step(20);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const after = (await call(lab.server, 'GET', RS)).json() as RsList;
    assert.deepEqual(after.items.map((rs) => rs.metadata.uid), [made.items[0]!.metadata.uid], 'the same ReplicaSet, and no other');
    assert.equal(adopted.items[0]!.metadata.ownerReferences?.[0]?.uid, second.json().metadata.uid);
  });
});

// ReplicationControllers over HTTP with the workload simulation on: Pods made to spec.replicas, the
// /scale subresource moving that number, orphans adopted, a Pod relabelled away released (and
// replaced), and the garbage collector taking the Pods when the controller goes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { call } from '../server/httpClient.ts';
import { httpWorkloadLab } from './httpWorkloadLab.ts';

const lab = httpWorkloadLab();
const RCS = '/api/v1/namespaces/default/replicationcontrollers';
const PODS = '/api/v1/namespaces/default/pods';

type List = { items: KubeObject[] };
const rc = (name: string, replicas: number) => ({
  apiVersion: 'v1', kind: 'ReplicationController', metadata: { name },
  spec: { replicas, template: { metadata: { labels: { name } }, spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'httpd', image: 'httpd:2.4' }] } } },
});
const ownedBy = (uid: string) => (p: KubeObject) => (p.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === uid);
const live = (list: List) => list.items.filter((p) => !p.metadata.deletionTimestamp);

describe('ReplicationController', () => {
  it('defaults its selector and labels from the template and reports replicas through /scale', async () => {
    const created = await call(lab.server, 'POST', RCS, { body: rc('scaled', 1) });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().spec.selector, { name: 'scaled' });
    assert.deepEqual(created.json().metadata.labels, { name: 'scaled' });
    await lab.until<KubeObject>(`${RCS}/scaled`, (o) => (o.status as { replicas?: number }).replicas === 1);
    const scale = (await call(lab.server, 'GET', `${RCS}/scaled/scale`)).json();
    assert.deepEqual([scale.kind, scale.spec.replicas, scale.status.replicas, scale.status.selector], ['Scale', 1, 1, 'name=scaled']);
    const updated = await call(lab.server, 'PUT', `${RCS}/scaled/scale`, { body: { ...scale, metadata: { ...scale.metadata, resourceVersion: '' }, spec: { replicas: 2 } } });
    assert.equal(updated.status, 200, updated.body);
    const done = await lab.until<KubeObject>(`${RCS}/scaled`, (o) => (o.status as { replicas?: number }).replicas === 2);
    assert.equal((done.status as { observedGeneration?: number }).observedGeneration, 2);
    const pods = live(await lab.until<List>(`${PODS}?labelSelector=name%3Dscaled`, (l) => live(l).length === 2));
    assert.ok(pods.every(ownedBy(created.json().metadata.uid)), 'its Pods name it as their controller');
  });

  it('releases a Pod whose labels no longer match, and replaces it', async () => {
    const created = (await call(lab.server, 'POST', RCS, { body: rc('release', 1) })).json();
    const [pod] = live(await lab.until<List>(`${PODS}?labelSelector=name%3Drelease`, (l) => live(l).length === 1)).filter(ownedBy(created.metadata.uid));
    assert.ok(pod);
    const relabelled = await call(lab.server, 'PUT', `${PODS}/${pod.metadata.name}`, { body: { ...pod, metadata: { ...pod.metadata, labels: { name: 'not-matching-name' } } } });
    assert.equal(relabelled.status, 200, relabelled.body);
    await lab.until<KubeObject>(`${PODS}/${pod.metadata.name}`, (p) => !ownedBy(created.metadata.uid)(p));
    const replaced = await lab.until<List>(`${PODS}?labelSelector=name%3Drelease`, (l) => live(l).length === 1 && live(l)[0]!.metadata.name !== pod.metadata.name);
    assert.ok(ownedBy(created.metadata.uid)(live(replaced)[0]!));
  });

  it('adopts an orphan Pod its selector matches instead of making another', async () => {
    const orphan = await call(lab.server, 'POST', PODS, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orphan', labels: { name: 'adopter' } }, spec: { containers: [{ name: 'httpd', image: 'httpd:2.4' }] } } });
    assert.equal(orphan.status, 201, orphan.body);
    const created = (await call(lab.server, 'POST', RCS, { body: rc('adopter', 1) })).json();
    await lab.until<KubeObject>(`${PODS}/orphan`, ownedBy(created.metadata.uid));
    await lab.until<KubeObject>(`${RCS}/adopter`, (o) => (o.status as { replicas?: number }).replicas === 1);
    assert.deepEqual(live((await call(lab.server, 'GET', `${PODS}?labelSelector=name%3Dadopter`)).json()).map((p) => p.metadata.name), ['orphan']);
  });

  it('its Pods are garbage collected when it is deleted in the background', async () => {
    const created = (await call(lab.server, 'POST', RCS, { body: rc('collected', 2) })).json();
    await lab.until<List>(`${PODS}?labelSelector=name%3Dcollected`, (l) => live(l).length === 2);
    const deleted = await call(lab.server, 'DELETE', `${RCS}/collected`, { body: { propagationPolicy: 'Background', preconditions: { uid: created.metadata.uid } } });
    assert.equal(deleted.status, 200, deleted.body);
    await lab.until<List>(`${PODS}?labelSelector=name%3Dcollected`, (l) => l.items.length === 0);
  });
});

import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { FakeClock } from '../../../src/shared/clock.ts';
import { objectDocumentText } from '../../../src/vscode/documents/objectDocument.ts';
import { objectUriParts, parseObjectUri } from '../../../src/vscode/documents/objectUri.ts';
import { Lab } from '../../../src/vscode/model/lab.ts';
import { CONFIGMAPS, FakeApi, fakeBackend, settle } from './fakeBackend.ts';

async function labWith(api: FakeApi) {
  const lab = new Lab({ clock: new FakeClock(), createBackend: async () => fakeBackend(api), maxTimelineEvents: 100 });
  const cluster = await lab.connect({ kind: 'kubeconfig', context: 'test' }, 'test');
  const informer = lab.startInformer(cluster.id, { resource: CONFIGMAPS, namespace: '', labelSelector: '' });
  await informer.informer.waitForSync();
  return { lab, informer };
}

describe('object documents', () => {
  it('round-trips addresses through the URI parts', () => {
    const address = { informerId: 'ctx:/k:prod/deployments.apps@web[app=x]', resource: 'deployments.apps', key: 'web/frontend', resourceVersion: '42' };
    const parts = objectUriParts(address);
    assert.equal(parts.path, '/deployments.apps/web/frontend.yaml');
    assert.deepEqual(parseObjectUri(parts), address);
    const clusterScoped = objectUriParts({ informerId: 'sim/nodes', resource: 'nodes', key: 'node-1' });
    assert.equal(clusterScoped.path, '/nodes/_cluster/node-1.yaml');
    assert.deepEqual(parseObjectUri(clusterScoped), { informerId: 'sim/nodes', resource: 'nodes', key: 'node-1' });
  });

  it('shows the live object, a fixed version, and a deleted object’s last state', async () => {
    const api = new FakeApi();
    api.put('default', 'a', { v: '1' });
    const { lab, informer } = await labWith(api);
    api.put('default', 'a', { v: '2' });
    await settle();
    const live = objectDocumentText(lab, { informerId: informer.id, resource: 'configmaps', key: 'default/a' }, false);
    assert.match(live, /^# default\/a — live from informer configmaps/);
    assert.match(live, /v: "2"/);
    const old = objectDocumentText(lab, { informerId: informer.id, resource: 'configmaps', key: 'default/a', resourceVersion: '11' }, false);
    assert.match(old, /v: "1"/);
    api.remove('default', 'a');
    await settle();
    assert.match(objectDocumentText(lab, { informerId: informer.id, resource: 'configmaps', key: 'default/a' }, false), /was DELETED/);
    assert.match(objectDocumentText(lab, { informerId: 'nope', resource: 'configmaps', key: 'default/a' }, false), /not running/);
    await lab.dispose();
  });
});

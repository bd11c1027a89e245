import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { FakeClock } from '../../../src/shared/clock.ts';
import { Lab } from '../../../src/vscode/model/lab.ts';
import { laneKeyOf } from '../../../src/shared/protocol/timeline.ts';
import { probeTimelineEvent } from '../../../src/vscode/controllers/probeTimelineEvent.ts';
import { InformerMarkers } from '../../../src/vscode/model/informerMarkers.ts';
import { CONFIGMAPS, FakeApi, fakeBackend, settle } from './fakeBackend.ts';

// What the host puts on the timeline for an informer of the lab: every object the first list
// brought gets a lane (not only those a later watch event touches), with its kind and its cluster.

describe('timeline events from the lab’s informers', () => {
  it('gives every object of the initial list a lane, once, with its kind and cluster', async () => {
    const api = new FakeApi();
    api.put('default', 'a');
    api.put('demo', 'b');
    const lab = new Lab({ clock: new FakeClock(1_700_000_000_000), createBackend: async () => fakeBackend(api, 'kind-dev'), maxTimelineEvents: 1000 });
    const cluster = await lab.connect({ kind: 'kubeconfig', context: 'kind-dev' }, 'kind-dev');
    const informer = lab.startInformer(cluster.id, { resource: CONFIGMAPS, namespace: '', labelSelector: '' });
    await informer.informer.waitForSync();
    await settle();
    api.put('default', 'a', { v: '2' });
    api.put('default', 'c');
    await settle();
    const objectEvents = lab.timeline.events.all().filter((e) => e.name !== '');
    assert.deepEqual(
      objectEvents.map((e) => `${e.type} ${e.kind} ${e.namespace}/${e.name} rv ${e.resourceVersion} @ ${e.cluster}`),
      ['ADDED ConfigMap default/a rv 11 @ kind-dev', 'ADDED ConfigMap demo/b rv 12 @ kind-dev', 'MODIFIED ConfigMap default/a rv 13 @ kind-dev', 'ADDED ConfigMap default/c rv 14 @ kind-dev'],
    );
    await lab.dispose();
  });

  it('keeps a debug session’s cache of an object in a lane apart from the view’s', () => {
    const fromController = probeTimelineEvent('rs', { at: 1, informer: 'configmaps', kind: 'delta', type: 'Updated', key: 'default/a', resourceVersion: '3' }, new InformerMarkers(), {
      name: 'rs', forKind: { apiVersion: 'v1', kind: 'ConfigMap' }, owns: [], watches: [], workers: 1,
    });
    assert.ok(fromController);
    assert.equal(fromController.kind, 'ConfigMap');
    const fromView = { ...fromController, informer: 'sim/configmaps', cluster: 'Simulated cluster' };
    assert.notEqual(laneKeyOf(fromController), laneKeyOf(fromView));
  });
});

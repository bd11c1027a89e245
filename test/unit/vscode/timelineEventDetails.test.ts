import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { FakeClock } from '../../../src/shared/clock.ts';
import { Lab } from '../../../src/vscode/model/lab.ts';
import { eventDetails } from '../../../src/vscode/timeline/eventDetails.ts';
import { CONFIGMAPS, FakeApi, fakeBackend, settle } from './fakeBackend.ts';

async function labWith(api: FakeApi) {
  const clock = new FakeClock();
  const lab = new Lab({ clock, createBackend: async () => fakeBackend(api), maxTimelineEvents: 100 });
  const cluster = await lab.connect({ kind: 'kubeconfig', context: 'test' }, 'test');
  const informer = lab.startInformer(cluster.id, { resource: CONFIGMAPS, namespace: '', labelSelector: '' });
  await informer.informer.waitForSync();
  return { lab, clock, informer };
}

describe('timeline event details', () => {
  it('diffs an event’s version against the one before it', async () => {
    const api = new FakeApi();
    api.put('default', 'a', { v: '1' });
    const { lab, clock } = await labWith(api);
    api.put('default', 'a', { v: '2' });
    await settle();
    const modified = lab.timeline.events.all().find((e) => e.type === 'MODIFIED');
    assert.ok(modified);
    const details = eventDetails(lab, modified.seq, false);
    assert.equal(details.previousResourceVersion, '11');
    assert.deepEqual(details.diff?.filter((l) => l.op !== ' ').map((l) => l.op + l.text.trim()), ['-resourceVersion: "11"', '+resourceVersion: "12"', '-v: "1"', '+v: "2"']);
    api.expireWatches();
    await settle();
    // The relist waits client-go's reflector backoff (0.8–1.6 s) first.
    clock.step(1600);
    await settle();
    const relist = lab.timeline.events.all().find((e) => e.type === 'RELIST');
    assert.ok(relist);
    assert.match(eventDetails(lab, relist.seq, false).note ?? '', /A relist/);
    assert.throws(() => eventDetails(lab, 999, false), /no longer kept/);
    await lab.dispose();
  });

  it('says what a perturbation did, then what the marker means', async () => {
    const lab = new Lab({ clock: new FakeClock(), createBackend: async () => fakeBackend(new FakeApi()), maxTimelineEvents: 100 });
    const marker = lab.timeline.events.push({ at: 1, informer: 'controller:c/perturbations', resource: 'perturbations', namespace: '', name: '', type: 'PERTURBATION', resourceVersion: '146', note: 'killed right after `create ConfigMap default/web-*`, then restarted' });
    const note = eventDetails(lab, marker.seq, false).note ?? '';
    assert.match(note, /^killed right after `create ConfigMap default\/web-\*`, then restarted\n\nA check finding replayed in the debugger/);
    await lab.dispose();
  });
});


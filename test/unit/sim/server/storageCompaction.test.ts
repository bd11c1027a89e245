// Storage compacted every five minutes, as kube-apiserver compacts etcd (the e2e "API chunking
// should support continue listing from the last key if the original version has been compacted
// away"): a continue token older than the previous round is a 410 Expired carrying an inconsistent
// token that lists on from the same key at a newer resourceVersion; watches, served from the
// watch cache's window, still resume from it. Off (the default), nothing expires.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';
import { startSimServer, type SimServerHandle } from '../../../../src/sim/server/simServer.ts';
import { call } from './httpClient.ts';

const CMS = '/api/v1/namespaces/default/configmaps';

describe('periodic storage compaction', () => {
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  let cluster: SimCluster;
  let server: SimServerHandle;
  before(async () => {
    cluster = createSimCluster({ clock, storageCompaction: true });
    server = await startSimServer(cluster, { insecureHttp: true });
  });
  after(async () => {
    await server.stop();
    await cluster.close();
  });

  it('is off by default: a token stays good', async () => {
    const plain = createSimCluster({ clock });
    const first = plain.list({ group: '', version: 'v1', resource: 'namespaces' }, { limit: 1 });
    clock.step(20 * 60_000);
    assert.equal(plain.list({ group: '', version: 'v1', resource: 'namespaces' }, { limit: 1, continue: first.continue! }).items.length, 1);
    await plain.close();
  });

  it('expires a continue token two rounds old, with a token to carry on inconsistently', async () => {
    for (const name of ['page-a', 'page-b', 'page-c']) assert.equal((await call(server, 'POST', CMS, { body: { metadata: { name, labels: { paged: 'y' } } } })).status, 201);
    const first = (await call(server, 'GET', `${CMS}?labelSelector=paged%3Dy&limit=1`)).json();
    const token = encodeURIComponent(first.metadata.continue);
    clock.step(5 * 60_000);
    assert.equal((await call(server, 'GET', `${CMS}?labelSelector=paged%3Dy&limit=1&continue=${token}`)).status, 200, 'the first round only marks');
    clock.step(5 * 60_000);
    const expired = await call(server, 'GET', `${CMS}?labelSelector=paged%3Dy&limit=1&continue=${token}`);
    assert.equal(expired.status, 410, expired.body);
    assert.equal(expired.json().reason, 'Expired');
    const inconsistent = expired.json().metadata.continue;
    assert.ok(inconsistent);
    const rest = (await call(server, 'GET', `${CMS}?labelSelector=paged%3Dy&limit=1&continue=${encodeURIComponent(inconsistent)}`)).json();
    assert.deepEqual(rest.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['page-b']);
    assert.notEqual(rest.metadata.resourceVersion, first.metadata.resourceVersion, 'the rounds wrote: the revision moved on');
    const watchEvents: string[] = [];
    const watch = cluster.watch({ group: '', version: 'v1', resource: 'configmaps' }, { resourceVersion: first.metadata.resourceVersion }, { event: (e) => watchEvents.push(e.type), close: () => {} });
    watch.stop();
    assert.ok(!watchEvents.includes('ERROR'), `a watch resumes from the window: ${watchEvents.join(' ')}`);
  });
});

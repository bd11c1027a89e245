import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../../../../src/shared/clock.ts';
import { SimCluster } from '../../../../src/sim/simCluster.ts';
import { TraceError } from '../../../../src/sim/scenario/traceReplay.ts';

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const DEPLOY = { group: 'apps', version: 'v1', resource: 'deployments' };

const line = (type: string, name: string, data: Record<string, string>, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ type, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'recorded', uid: 'old-uid', resourceVersion: '99812' }, data }, ...extra });

test('a recorded trace replays with its pacing: adds, updates and deletes, in a namespace created for it', async () => {
  const clock = new FakeClock();
  const cluster = new SimCluster({ clock });
  const trace = [
    line('ADDED', 'a', { v: '1' }, { at: 0 }),
    JSON.stringify({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '5' } } }),
    line('MODIFIED', 'a', { v: '2' }, { at: 1000 }),
    line('ADDED', 'b', { v: '1' }, { at: 1500 }),
    line('DELETED', 'a', { v: '2' }, { at: 3000 }),
  ].join('\n');
  const replay = cluster.replayTrace(trace);
  assert.deepEqual(cluster.get(CM, 'recorded', 'a').object.data, { v: '1' });
  assert.notEqual(cluster.get(CM, 'recorded', 'a').object.metadata.uid, 'old-uid');
  clock.step(1000);
  assert.deepEqual(cluster.get(CM, 'recorded', 'a').object.data, { v: '2' });
  clock.step(2000);
  await replay.done;
  assert.deepEqual(cluster.list(CM, { namespace: 'recorded' }).items.map((i) => i.object.metadata.name), ['b']);
  assert.equal(replay.applied, 4);
  assert.deepEqual(replay.errors, []);
});

test('speed 0 replays everything at once; status is written through /status', () => {
  const cluster = new SimCluster({ clock: new FakeClock() });
  const deploy = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
    status: { replicas: 2, readyReplicas: 2 } };
  cluster.replayTrace(JSON.stringify({ type: 'ADDED', object: deploy, at: 60_000 }), { speed: 0 });
  assert.deepEqual(cluster.get(DEPLOY, 'default', 'web').object.status, { replicas: 2, readyReplicas: 2 });
});

test('bad trace lines are all reported with their numbers, and nothing is applied', () => {
  const cluster = new SimCluster({ clock: new FakeClock() });
  const rv = cluster.resourceVersion;
  assert.throws(() => cluster.replayTrace([line('ADDED', 'a', {}), '{not json', JSON.stringify({ type: 'UPSERT', object: {} })].join('\n')), (e: unknown) =>
    e instanceof TraceError && e.problems.map((p) => p.line).join(',') === '2,3');
  assert.equal(cluster.resourceVersion, rv);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCluster } from '../../../src/kube/cluster.ts';
import { scratchDir } from '../kube/support/loopbackApi.ts';
import { startCli } from './support/runCli.ts';

// `controller-lab watch` against `controller-lab sim`: two real processes over HTTPS, with the
// simulator's faults forcing the informer through a 410 and a relist.

test('watch follows the simulated cluster through dropped watches and a compaction (410 → relist)', async (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const kubeconfig = path.join(dir, 'kubeconfig');
  const sim = startCli(['sim', '--kubeconfig-out', kubeconfig]);
  t.after(() => sim.child.kill('SIGINT'));
  await sim.waitForStdout('Kubeconfig:');

  const cluster = loadCluster({ kubeconfig });
  t.after(() => cluster.close());
  const create = (name: string) =>
    cluster.request('/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } }),
    });
  const admin = (action: string, body: unknown = {}) =>
    cluster.request(`/controller-lab/admin/${action}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  await create('before');
  const dump = path.join(dir, 'cache.json');
  const watch = startCli(['watch', 'configmaps', '--kubeconfig', kubeconfig, '--exit-when-seen', 'default/after', '--dump-cache', dump]);
  await watch.waitForStdout('before');

  // The watcher misses 'middle', its history is compacted away, and its watch is dropped: the
  // resume from its last resourceVersion must get 410, and the relist must bring 'middle'.
  await admin('withhold-events');
  await create('middle');
  await admin('compact');
  await admin('drop-watches');
  await admin('release-events');
  await watch.waitForStdout('middle');
  await create('after');

  const r = await watch.done;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /ADDED\s+default\s+before\s/);
  assert.match(r.stdout, /ADDED\s+default\s+middle\s/);
  assert.match(r.stdout, /ADDED\s+default\s+after\s/);
  assert.match(r.stderr, /^lists=2 watches=\d+ relists=1 410s=1 /m);
  const cached = JSON.parse(readFileSync(dump, 'utf8')) as { name: string; uid: string }[];
  // Beside the test's own: the namespace's CA ConfigMap, which the sim's controller manager
  // publishes as it starts (before the first request it serves).
  assert.deepEqual(cached.map((c) => c.name), ['after', 'before', 'kube-root-ca.crt', 'middle']);
  assert.ok(cached.every((c) => c.uid.length > 0));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCluster } from '../../../src/kube/cluster.ts';
import type { KubeList } from '../../../src/shared/k8s.ts';
import { scratchDir } from '../kube/support/loopbackApi.ts';
import { startCli } from './support/runCli.ts';

// `controller-lab watch` against `controller-lab sim` under the simulator's faults: 429s with
// Retry-After, a watch gone silent (events and bookmarks withheld), then deletions hidden behind a
// compaction. The dump taken at --exit-when-seen must equal the server's objects exactly.

test('watch rides out 429 + Retry-After, a silent watch and a 410 relist; the dump equals the server', { timeout: 120_000 }, async (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const kubeconfig = path.join(dir, 'kubeconfig');
  const sim = startCli(['sim', '--kubeconfig-out', kubeconfig]);
  t.after(() => sim.child.kill('SIGINT'));
  await sim.waitForStdout('Kubeconfig:');

  const cluster = loadCluster({ kubeconfig });
  t.after(() => cluster.close());
  const cms = '/api/v1/namespaces/default/configmaps';
  const json = { 'Content-Type': 'application/json' };
  const create = (name: string) => cluster.request(cms, { method: 'POST', headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } }) });
  const remove = (name: string) => cluster.request(`${cms}/${name}`, { method: 'DELETE' });
  const admin = (action: string, body: unknown = {}) => cluster.request(`/controller-lab/admin/${action}`, { method: 'POST', headers: json, body: JSON.stringify(body) });

  const names = Array.from({ length: 40 }, (_, i) => `cm-${String(i).padStart(2, '0')}`);
  for (const n of names) await create(n);
  await admin('http-faults', { errorRate: 1, errorCode: 429, retryAfterSeconds: 1, pathFilter: '/configmaps' });

  const dump = path.join(dir, 'cache.json');
  const watch = startCli(['watch', 'configmaps', '--kubeconfig', kubeconfig, '--watch-idle-timeout', '1s', '--exit-when-seen', 'default/sentinel', '--dump-cache', dump]);
  let stderr = '';
  const stderrHas = (re: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = (): void => void (re.test(stderr) && resolve());
      watch.child.stderr!.on('data', (d: Buffer) => ((stderr += String(d)), check()));
      void watch.done.then(() => reject(new Error(`exited before ${re}; stderr:\n${stderr}`)));
      check();
    });
  await stderrHas(/429 TooManyRequests.*as its Retry-After asks, 2\/10/);
  await admin('reset');
  await watch.waitForStdout('cm-39');

  // Silence: the watch is closed after a second and resumed, without a word while nothing changed
  // (a quiet kind on kube-apiserver is as silent).
  await admin('withhold-events');
  await admin('withhold-bookmarks');
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  assert.doesNotMatch(stderr, /received nothing/);

  // Hidden from the watcher: most objects go, one arrives; then its history is compacted away.
  for (const n of names.filter((_, i) => i % 4 !== 0)) await remove(n);
  await create('sentinel');
  await admin('compact');
  await admin('drop-watches');
  await admin('release-bookmarks');
  await admin('release-events');

  const r = await watch.done;
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^lists=2 watches=\d+ relists=1 410s=1 /m);
  assert.ok(Number(/^lists=2 watches=(\d+)/m.exec(r.stderr)![1]) >= 3, `the silent watch was resumed: ${r.stderr}`);
  const server = await cluster.request<KubeList>(cms);
  const expected = server.items.map((o) => o.metadata.name).sort();
  // 10 of the 40, the sentinel, and the namespace's CA ConfigMap (the sim's controller manager publishes it at start).
  assert.equal(expected.length, 12);
  const cached = (JSON.parse(readFileSync(dump, 'utf8')) as { name: string }[]).map((c) => c.name);
  assert.deepEqual(cached, expected);
});

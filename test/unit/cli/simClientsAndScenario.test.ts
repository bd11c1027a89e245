import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { loadCluster } from '../../../src/kube/cluster.ts';
import { scratchDir } from '../kube/support/loopbackApi.ts';
import { formatClientsTable } from '../../../src/cli/clientsTable.ts';
import { cliSource, runCli, startCli } from './support/runCli.ts';

// `controller-lab sim --scenario` says what the scenario does as it runs, and `sim clients` answers
// a table a person can read (JSON behind -o json).

const SCENARIO = `seed: 1
objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: app, namespace: default }
    data: { v: "0" }
steps:
  - at: 100ms
    repeat:
      count: 5
      over: 200ms
      step:
        patch:
          target: { kind: ConfigMap, namespace: default, name: app }
          patch: { data: { v: "\${i}" } }
  - after: 100ms
    dropWatches: true
`;

test('sim prints each scenario step as it runs, then that it finished; sim clients prints a table', async (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const kubeconfig = path.join(dir, 'kubeconfig');
  const scenario = path.join(dir, 'steps.yaml');
  writeFileSync(scenario, SCENARIO);
  const sim = startCli(['sim', '--kubeconfig-out', kubeconfig, '--scenario', scenario]);
  t.after(() => sim.child.kill('SIGINT'));
  await sim.waitForStdout('finished after');

  const cluster = loadCluster({ kubeconfig, userAgent: 'my-controller/1.0' });
  t.after(() => cluster.close());
  await cluster.request('/api/v1/namespaces/default/configmaps');

  const table = await runCli(['sim', 'clients', '--kubeconfig', kubeconfig]);
  assert.equal(table.code, 0, table.stderr);
  const lines = table.stdout.split('\n');
  assert.match(lines[0] ?? '', /^CLIENT\s+LAST SEEN\s+LISTS\s+WATCHES\s+WRITES\s+ERRORS$/);
  assert.ok(lines.some((l) => /^my-controller\/1\.0\s+\d+s ago\s+1\s+0 open \/ 0\s+0\s+0$/.test(l)), table.stdout);
  assert.doesNotMatch(table.stdout, /[{}"]/, 'no JSON in the table');

  const json = await runCli(['sim', 'clients', '-o', 'json', '--kubeconfig', kubeconfig]);
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout) as { clients: { userAgent: string; lists: number }[] };
  assert.equal(parsed.clients.find((c) => c.userAgent === 'my-controller/1.0')?.lists, 1);

  const bad = await runCli(['sim', 'clients', '-o', 'yaml', '--kubeconfig', kubeconfig]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /use -o json/);

  sim.child.kill('SIGINT');
  const r = await sim.done;
  assert.match(r.stdout, /Scenario .*steps\.yaml started: 1 object applied, 6 steps to run\./);
  assert.match(r.stdout, /steps\[0\]: patch ConfigMap default\/app — 5 times…/);
  assert.match(r.stdout, /steps\[0\]: done \(5 times\)/);
  assert.match(r.stdout, /steps\[1\]: drop watches/);
  assert.match(r.stdout, /Scenario .*steps\.yaml finished after \d+\.\ds \(6 of 6 steps run\)\./);
  const order = ['started:', '5 times…', 'done (5 times)', 'drop watches', 'finished after'].map((s) => r.stdout.indexOf(s));
  assert.deepEqual([...order].sort((a, b) => a - b), order, r.stdout);
});

test('sim clients: a table of 150,000 watches prints, and a reader that goes early (| head -c 10) gets no stack trace', async (t) => {
  const watches = Array.from({ length: 150_000 }, (_, i) => ({
    id: i, resource: 'configmaps', namespace: 'default', labelSelector: '', fieldSelector: '', startedAt: 0,
    lastResourceVersion: String(i), events: 0, bookmarks: 0, open: true,
  }));
  const client = { id: 'c', userAgent: 'crowd', tokenId: 't', firstSeen: 0, lastSeen: 0, lists: 0, recentLists: [], watches, writes: 0, recentWrites: [], errors: 0 };
  const text = formatClientsTable([client], 1000);
  assert.equal(text.split('\n').length, 150_000 + 5);

  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const kubeconfig = path.join(dir, 'kubeconfig');
  const sim = startCli(['sim', '--kubeconfig-out', kubeconfig]);
  t.after(() => sim.child.kill('SIGINT'));
  await sim.waitForStdout('Press Ctrl+C');
  const cluster = loadCluster({ kubeconfig, userAgent: 'one/1.0' });
  t.after(() => cluster.close());
  await cluster.request('/api/v1/namespaces/default/configmaps');
  // The reader goes before the answer is printed, as `| head -c 10` goes once it has its bytes.
  const cli = spawn(process.execPath, [cliSource, 'sim', 'clients', '-o', 'json', '--kubeconfig', kubeconfig], { stdio: ['ignore', 'pipe', 'pipe'] });
  cli.stdout.destroy();
  let stderr = '';
  cli.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise((resolve) => cli.on('close', resolve));
  assert.equal(stderr, '', 'nothing on stderr');
  assert.equal(code, 0);
});

test('sim clients against a kubeconfig whose sim is gone, or does not answer, says so in one line', { timeout: 60_000 }, async (t) => {
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  // A port nothing listens on, and a server that takes the connection and never answers.
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const silent = net.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.after(() => silent.close());
  const silentPort = (silent.address() as net.AddressInfo).port;
  const kubeconfigFor = (port: number) => {
    const file = path.join(dir, `kubeconfig-${port}`);
    writeFileSync(file, `apiVersion: v1\nkind: Config\nclusters:\n- name: sim\n  cluster:\n    server: http://127.0.0.1:${port}\nusers:\n- name: sim\n  user:\n    token: t\ncontexts:\n- name: sim\n  context: {cluster: sim, user: sim}\ncurrent-context: sim\n`);
    return file;
  };
  const refused = await runCli(['sim', 'clients', '--kubeconfig', kubeconfigFor(closedPort)]);
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr, `controller-lab sim: no simulated cluster answers at http://127.0.0.1:${closedPort} (connection refused): is controller-lab sim running, and did it write this kubeconfig?\n`);
  const started = Date.now();
  const hung = await runCli(['sim', 'clients', '--kubeconfig', kubeconfigFor(silentPort)]);
  assert.equal(hung.code, 1);
  assert.equal(hung.stderr, `controller-lab sim: the simulated cluster at http://127.0.0.1:${silentPort} has not answered in 15 s: is it stopped (Ctrl+Z) or overloaded?\n`);
  assert.ok(Date.now() - started < 30_000);
});

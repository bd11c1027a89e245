import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadCluster } from '../../../src/kube/cluster.ts';
import { describeFailure } from '../../../src/kube/errors.ts';
import { scratchDir, sendJson, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';

// An exec credential plugin that waits (on stdin, on a login that never comes) must not keep
// `watch` or `run` waiting forever in silence: it reads end-of-file when it has no terminal, what
// it says reaches the user, and one that never answers is stopped with an error naming it.

/** A zombie (killed, not yet reaped by init in a container) no longer runs. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

const CREDENTIAL = `JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'ok' } })`;

async function setUp(t: { after(fn: () => unknown): void }, pluginSource: string, options: { credentialTimeoutMs?: number } = {}) {
  const api = await startLoopbackApi();
  api.route('/version', (req, res) => sendJson(res, 200, { gitVersion: 'v1.31.0', authorization: req.headers.authorization ?? null }));
  t.after(() => api.close());
  const { dir, cleanup } = scratchDir();
  t.after(cleanup);
  const plugin = path.join(dir, 'plugin.mjs');
  writeFileSync(plugin, pluginSource);
  const warnings: string[] = [];
  const kubeconfig = writeKubeconfig(dir, {
    server: api.url,
    user: { token: undefined, exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [plugin, dir], interactiveMode: 'IfAvailable' } },
  });
  const cluster = loadCluster({ kubeconfig, connectTimeoutMs: 5000, ...options, onWarning: (w) => warnings.push(w) });
  t.after(() => cluster.close());
  return { cluster, warnings, dir };
}

test('an exec plugin that never answers is stopped after the credential timeout, with an error naming it and its last words', { timeout: 20_000 }, async (t) => {
  const { cluster, dir } = await setUp(
    t,
    `import { writeFileSync } from 'node:fs';
     import { spawn } from 'node:child_process';
     // A helper that holds the plugin's stderr open, as a shell script's sleep does.
     const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });
     writeFileSync(process.argv[2] + '/pids', process.pid + ' ' + helper.pid);
     process.stderr.write('Open https://login.example/device in your browser\\n');
     setInterval(() => {}, 1000);`,
    { credentialTimeoutMs: 1500 },
  );
  const started = Date.now();
  await assert.rejects(cluster.request('/version'), (err: unknown) => {
    const f = describeFailure(err);
    assert.equal(f.kind, 'credentials');
    assert.match(f.message, /exec credential plugin ".*" for user "loopback" failed: gave no credential within 1\.5 s and was stopped \(it last said: Open https:\/\/login\.example\/device in your browser\); run it alone to see what it waits for/);
    return true;
  });
  assert.ok(Date.now() - started < 10_000, `gave up after ${Date.now() - started} ms`);
  await new Promise((r) => setTimeout(r, 200));
  for (const pid of readFileSync(path.join(dir, 'pids'), 'utf8').split(' ').map(Number)) {
    assert.equal(isRunning(pid), false, `process ${pid} of the plugin was left running`);
  }
});

test('an exec plugin without a terminal reads end-of-file from stdin instead of waiting on it; what it says on stderr is passed on', { timeout: 20_000 }, async (t) => {
  const { cluster, warnings } = await setUp(
    t,
    `process.stderr.write('Password: ');
     let typed = '';
     process.stdin.on('data', (d) => (typed += d));
     process.stdin.on('end', () => process.stdout.write(${CREDENTIAL}));`,
  );
  const answer = await cluster.request<{ authorization: string }>('/version');
  assert.equal(answer.authorization, 'Bearer ok');
  assert.ok(warnings.some((w) => /^exec credential plugin ".*": Password:$/.test(w)), warnings.join('\n'));
});

test('concurrent requests share one run of the exec plugin, which is told it is not interactive', { timeout: 20_000 }, async (t) => {
  const { cluster, dir } = await setUp(
    t,
    `import { appendFileSync } from 'node:fs';
     appendFileSync(process.argv[2] + '/runs', process.env.KUBERNETES_EXEC_INFO + '\\n');
     setTimeout(() => process.stdout.write(${CREDENTIAL}), 300);`,
  );
  const answers = await Promise.all([1, 2, 3].map(() => cluster.request<{ authorization: string }>('/version')));
  assert.deepEqual(answers.map((a) => a.authorization), ['Bearer ok', 'Bearer ok', 'Bearer ok']);
  const runs = readFileSync(path.join(dir, 'runs'), 'utf8').trim().split('\n');
  assert.equal(runs.length, 1, runs.join('\n'));
  assert.deepEqual(JSON.parse(runs[0]!), { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', spec: { interactive: false } });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ControllerRunError, startSim } from '../../src/simtest/index.ts';

// controller-lab/simtest as a user's test runs it: the package's own `controller-lab sim` (this
// checkout's build, which the project stage makes first) over HTTPS, CRDs from a folder, objects
// applied and read back, a controller run until idle.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GUESTBOOK_CRDS = join(ROOT, 'examples/go-guestbook/config/crd/bases');
const REPLICASET_CONTROLLER = join(ROOT, 'examples/replicaset-controller/controller.ts');

test('startSim serves a cluster with the CRDs given, applies, reads and deletes objects, and stop removes its kubeconfig', { timeout: 120_000 }, async () => {
  const sim = await startSim({ manifests: [GUESTBOOK_CRDS] });
  try {
    assert.match(sim.server, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(statSync(sim.kubeconfig).mode & 0o777, 0o600);
    const [book] = await sim.apply('apiVersion: webapp.example.com/v1\nkind: Guestbook\nmetadata: { name: gb }\nspec: { message: hello }\n');
    assert.equal(book?.metadata.namespace, 'default');
    assert.equal(((await sim.get('webapp.example.com/v1', 'Guestbook', 'gb', 'default'))?.spec as { message?: string }).message, 'hello');
    // Applied again with a change: server-side apply updates it.
    await sim.apply({ apiVersion: 'webapp.example.com/v1', kind: 'Guestbook', metadata: { name: 'gb' }, spec: { message: 'again' } });
    assert.deepEqual((await sim.list('webapp.example.com/v1', 'Guestbook')).map((o) => [o.kind, (o.spec as { message: string }).message]), [['Guestbook', 'again']]);
    // The CRD's own validation answers as kube-apiserver's does.
    await assert.rejects(sim.apply({ apiVersion: 'webapp.example.com/v1', kind: 'Guestbook', metadata: { name: 'bad' }, spec: {} }), /spec\.message: Required value/);
    await assert.rejects(sim.get('example.com/v1', 'Widget', 'w'), /serves no Widget in example\.com\/v1 \(apply its CRD first/);
    assert.equal(await sim.delete('webapp.example.com/v1', 'Guestbook', 'gb', 'default'), true);
    assert.equal(await sim.get('webapp.example.com/v1', 'Guestbook', 'gb', 'default'), undefined);
    assert.equal(await sim.delete('webapp.example.com/v1', 'Guestbook', 'gb', 'default'), false);
    // A Namespace after what goes in it, in one call, as a manifest may list them.
    const inOrder = await sim.apply('apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c, namespace: team-a }\n---\napiVersion: v1\nkind: Namespace\nmetadata: { name: team-a }\n');
    assert.deepEqual(inOrder.map((o) => o.kind), ['Namespace', 'ConfigMap']);
  } finally {
    await sim.stop();
  }
  assert.equal(existsSync(sim.kubeconfig), false);
});

test('runController runs a controller until idle and answers its reconciles; a failing run rejects with its output', { timeout: 180_000 }, async () => {
  await using sim = await startSim();
  await sim.apply({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  });
  const { reconciles } = await sim.runController(REPLICASET_CONTROLLER, { timeoutSeconds: 90 });
  const first = reconciles[0];
  assert.equal(first?.key, 'default/web');
  assert.deepEqual(first?.writes.filter((w) => w.verb === 'create').map((w) => w.kind), ['Pod', 'Pod']);
  assert.equal((await sim.list('v1', 'Pod', 'default')).length, 2);

  const dir = mkdtempSync(join(tmpdir(), 'simtest-failing-'));
  try {
    writeFileSync(join(dir, 'failing.mjs'), "import { defineController } from 'controller-lab';\nexport default defineController({ name: 'failing', for: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, reconcile() { throw new Error('always broken'); } });\n");
    const failed = await sim.runController('failing.mjs', { cwd: dir, timeoutSeconds: 20 }).then(
      () => assert.fail('a controller whose keys keep failing does not pass'),
      (err: unknown) => err,
    );
    assert.ok(failed instanceof ControllerRunError);
    assert.equal(failed.exitCode, 1);
    assert.match(failed.message, /always broken/);
    assert.ok(failed.result.reconciles.some((r) => r.error?.message.includes('always broken')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a sim that cannot start says why, and leaves no kubeconfig behind', { timeout: 60_000 }, async () => {
  const kubeconfigFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('controller-lab-simtest-') && !name.includes('-run-')).sort();
  const before = kubeconfigFolders();
  await assert.rejects(startSim({ manifests: ['/nonexistent/crds'] }), /\/nonexistent\/crds: no such file or folder/);
  await assert.rejects(startSim({ startTimeoutMs: 1 }), /did not serve within 1 ms/);
  assert.deepEqual(kubeconfigFolders(), before);
});

test('a test process killed with SIGKILL takes its sim along', { timeout: 90_000 }, async () => {
  const script = `import { startSim } from ${JSON.stringify(new URL('../../src/simtest/index.ts', import.meta.url).href)};
const sim = await startSim();
console.log(sim.server);
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const server = String(line).trim();
  assert.equal(await answers(server), true, 'the sim serves while its test runs');
  child.kill('SIGKILL');
  const deadline = Date.now() + 30_000;
  while ((await answers(server)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.equal(await answers(server), false, `the sim at ${server} still answers after its test was killed`);
});

/** Whether anything answers HTTPS at the URL. */
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`${url}/readyz`, { rejectUnauthorized: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

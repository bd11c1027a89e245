import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { describeFailure, loadCluster } from '../../src/kube/index.ts';
import { ApiError } from '../../src/shared/apiError.ts';
import type { KubeObject } from '../../src/shared/k8s.ts';
import { recordedInformer } from './recordedInformer.ts';
import type { RecordedInformer } from './recordedInformer.ts';
import { adminCluster, CONFIGMAPS, configMap, configMapsIn, create, createNamespace, targetKubeconfig, unique, until } from './target.ts';

// What a user with the wrong credentials, or without the right to read, is told: by the informer
// (its error, in the words describeFailure gives the views and the CLI) and by `controller-lab watch`.

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

type User = { token?: string; as?: string };

describe('credentials and RBAC', () => {
  const admin = adminCluster();
  const ns = unique('informer-rbac');
  const dir = mkdtempSync(join(tmpdir(), 'informer-rbac-'));
  const running: RecordedInformer[] = [];

  /** The target's kubeconfig with its user changed: a wrong token, or impersonating someone. */
  const kubeconfigAs = (file: string, change: (user: User) => void): string => {
    const config = parse(readFileSync(targetKubeconfig(), 'utf8')) as { users: { user: User }[] };
    for (const u of config.users) change(u.user);
    const path = join(dir, file);
    writeFileSync(path, stringify(config), { mode: 0o600 });
    return path;
  };
  const informerWith = (kubeconfig: string): RecordedInformer => {
    const watched = recordedInformer('configmaps', loadCluster({ kubeconfig }).listerWatcher(CONFIGMAPS, { namespace: ns }));
    running.push(watched);
    watched.informer.run();
    return watched;
  };
  const watchCli = (kubeconfig: string): Promise<{ code: number | null; stderr: string }> =>
    new Promise((done) => {
      execFile(process.execPath, [join(REPO, 'dist', 'cli.cjs'), 'watch', 'configmaps', '-n', ns, '-o', 'none', '--kubeconfig', kubeconfig], { timeout: 60_000 }, (err, _out, stderr) =>
        done({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stderr }));
    });

  before(async () => {
    await createNamespace(admin, ns);
    await create(admin, configMapsIn(ns), configMap(ns, 'readable', {}));
  });

  after(() => {
    for (const w of running) w.informer.stop();
    admin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a wrong token: 401, said as the server rejecting the credentials, and never synced', async () => {
    const kubeconfig = kubeconfigAs('wrong-token', (u) => (u.token = 'not-a-token-this-server-knows'));
    const watched = informerWith(kubeconfig);
    await until('the first error', () => watched.errors.length > 0, 30_000);
    const err = watched.errors[0];
    assert.ok(err instanceof ApiError && err.code === 401, `first error: ${String(err)}`);
    assert.deepEqual(describeFailure(err), { kind: 'unauthorized', message: 'unauthorized (401): the server rejected the credentials: Unauthorized' });
    assert.equal(watched.informer.hasSynced(), false);
    assert.deepEqual(watched.probesOf('error').map((p) => p.code).slice(0, 1), [401]);
    const cli = await watchCli(kubeconfig);
    assert.deepEqual([cli.code, cli.stderr.trim()], [2, 'controller-lab watch: unauthorized (401): the server rejected the credentials: Unauthorized']);
  });

  it('a user RBAC gives nothing: 403 naming the user, the verb, the resource and the namespace', async () => {
    const kubeconfig = kubeconfigAs('nobody', (u) => (u.as = 'conformance-nobody'));
    const watched = informerWith(kubeconfig);
    await until('the first error', () => watched.errors.length > 0, 30_000);
    const err = watched.errors[0];
    assert.ok(err instanceof ApiError && err.code === 403, `first error: ${String(err)}`);
    const said = `forbidden (403): configmaps is forbidden: User "conformance-nobody" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`;
    assert.deepEqual(describeFailure(err), { kind: 'forbidden', message: said });
    assert.equal(watched.informer.hasSynced(), false);
    const cli = await watchCli(kubeconfig);
    assert.deepEqual([cli.code, cli.stderr.trim()], [2, `controller-lab watch: ${said}`]);
  });

  it('a user who may list but not watch: synced from the list, then 403 on the watch, listed again after each', async () => {
    const user = 'conformance-lister';
    await create(admin, `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'list-configmaps', namespace: ns },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
    } as unknown as KubeObject);
    await create(admin, `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'list-configmaps', namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'list-configmaps' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
    } as unknown as KubeObject);
    const kubeconfig = kubeconfigAs('lister', (u) => (u.as = user));
    // kube-apiserver's authorizer reads roles from its own cache: wait until the binding counts.
    const asLister = loadCluster({ kubeconfig });
    await until('the role binding to apply', () => asLister.request(configMapsIn(ns)).then(() => true, () => false), 30_000);
    asLister.close();
    const watched = informerWith(kubeconfig);
    assert.equal(await watched.informer.waitForSync(), true);
    assert.deepEqual(watched.informer.indexer.list().map((o) => o.metadata.name), ['readable']);
    await until('two refused watches (the informer retries)', () => watched.errors.length >= 2, 30_000);
    for (const err of watched.errors) {
      assert.deepEqual(describeFailure(err), {
        kind: 'forbidden',
        message: `forbidden (403): configmaps is forbidden: User "${user}" cannot watch resource "configmaps" in API group "" in the namespace "${ns}"`,
      });
    }
    assert.ok(watched.probesOf('backoff').length >= 1, 'the informer backs off between refused watches');
    // As client-go: each refused watch is followed by a list, so the cache still follows the server.
    const made = await create(admin, configMapsIn(ns), configMap(ns, 'made-later', {}));
    await until('the list after a refused watch to bring made-later', () => watched.informer.indexer.get(`${ns}/made-later`)?.metadata.resourceVersion === made.metadata.resourceVersion, 60_000);
  });
});

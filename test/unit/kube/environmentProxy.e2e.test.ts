import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCluster } from '../../../src/kube/cluster.ts';
import type { ClusterOptions } from '../../../src/kube/cluster.ts';
import { describeFailure } from '../../../src/kube/errors.ts';
import { createSharedInformer } from '../../../src/informer/index.ts';
import type { ApiResource, KubeObject } from '../../../src/shared/k8s.ts';
import { runCli } from '../cli/support/runCli.ts';
import { configMap, startScriptedCluster, watchLine } from '../cli/support/scriptedCluster.ts';
import type { ScriptedCluster } from '../cli/support/scriptedCluster.ts';
import { b64, makePki } from './support/certs.ts';
import { writeKubeconfig } from './support/loopbackApi.ts';
import { startConnectProxy, startSocks5Proxy } from './support/proxies.ts';
import type { TestProxy } from './support/proxies.ts';

// The proxy environment end to end: a real HTTPS API server on 127.0.0.1 named https://kube.test,
// a name only the test proxies can resolve. A list+watch that reaches it went through a proxy; one
// that should not have used a proxy fails with "host not found".

type T = { after(fn: () => unknown): void };

const pki = await makePki({ dns: 'kube.test' });
const configmaps: ApiResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap', verbs: ['list', 'watch'] };
const KUBE_TEST = { 'kube.test': '127.0.0.1' };
// Whatever the machine running the tests has set must not leak into the CLI runs.
const CLEAN_ENV = { HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '', NO_PROXY: '', no_proxy: '' };

/** A cluster serving `listed` in its list and `watched` on its watch, and a kubeconfig calling it https://kube.test. */
async function kubeTest(t: T, cluster: Record<string, unknown> = {}): Promise<ScriptedCluster & { server: string }> {
  const c = await startScriptedCluster({
    tls: { cert: pki.serverCert, key: pki.serverKey },
    items: [configMap('listed', '5')],
    watch: (res) => res.write(watchLine('ADDED', 'watched', '11')),
  });
  t.after(() => c.close());
  const server = `https://kube.test:${c.api.port}`;
  c.kubeconfig = writeKubeconfig(c.dir, { server, cluster: { 'certificate-authority-data': b64(pki.ca), ...cluster } });
  return { ...c, server };
}

async function proxy(t: T, start: typeof startConnectProxy = startConnectProxy): Promise<TestProxy> {
  const p = await start(KUBE_TEST);
  t.after(() => p.close());
  return p;
}

/** Runs an informer on configmaps until it has seen the watched object; resolves with the names it saw. */
async function informerSees(t: T, options: ClusterOptions): Promise<string[]> {
  const cluster = loadCluster({ connectTimeoutMs: 5000, ...options });
  const informer = createSharedInformer<KubeObject>({ name: 'configmaps', listerWatcher: cluster.listerWatcher(configmaps, { namespace: 'default' }) });
  t.after(() => {
    informer.stop();
    cluster.close();
  });
  const seen: string[] = [];
  await new Promise<void>((resolve, reject) => {
    informer.addEventHandler({
      onAdd: (obj) => {
        seen.push(obj.metadata.name ?? '');
        if (obj.metadata.name === 'watched') resolve();
      },
    });
    informer.onError((err) => reject(new Error(describeFailure(err).message)));
    informer.run();
  });
  return seen;
}

test('HTTPS_PROXY: the informer lists and watches through the proxy, with the proxy credentials', { timeout: 20_000 }, async (t) => {
  const api = await kubeTest(t);
  const p = await proxy(t);
  const withCredentials = p.url.replace('//', '//alice:s3cret@');
  const seen = await informerSees(t, { kubeconfig: api.kubeconfig, env: { HTTPS_PROXY: withCredentials, NO_PROXY: 'other.example,10.0.0.0/8' } });
  assert.deepEqual(seen, ['listed', 'watched']);
  assert.ok(p.targets.length >= 1);
  assert.deepEqual(new Set(p.targets), new Set([`kube.test:${api.api.port}`]), 'every connection tunnelled to kube.test');
  assert.deepEqual(new Set(p.authorizations), new Set([`Basic ${b64('alice:s3cret')}`]));
  // The list and the watch both arrived at the server (through the tunnel).
  assert.ok(api.api.requests.some((r) => r.path.startsWith('/api/v1/namespaces/default/configmaps?') && !r.path.includes('watch=true')));
  assert.ok(api.api.requests.some((r) => r.path.includes('watch=true')));
});

test('NO_PROXY=kube.test: no proxy, so kube.test must resolve locally and does not', { timeout: 20_000 }, async (t) => {
  const api = await kubeTest(t);
  const p = await proxy(t);
  const cluster = loadCluster({ kubeconfig: api.kubeconfig, connectTimeoutMs: 5000, env: { HTTPS_PROXY: p.url, NO_PROXY: 'localhost,KUBE.TEST' } });
  t.after(() => cluster.close());
  await assert.rejects(cluster.listerWatcher(configmaps, { namespace: 'default' }).list({}), (err: unknown) => {
    assert.deepEqual(describeFailure(err), { kind: 'unreachable', message: `cannot reach ${api.server}: host not found` });
    return true;
  });
  assert.deepEqual(p.targets, []);
  assert.deepEqual(api.api.requests, []);
});

test('a loopback server never goes through the proxy, even one NO_PROXY does not exempt', { timeout: 20_000 }, async (t) => {
  const api = await kubeTest(t);
  const p = await proxy(t);
  const kubeconfig = writeKubeconfig(api.dir, { server: api.api.url, cluster: { 'certificate-authority-data': b64(pki.ca), 'tls-server-name': 'kube.test' } }, 'loopback');
  assert.deepEqual(await informerSees(t, { kubeconfig, env: { HTTPS_PROXY: p.url, NO_PROXY: 'other.example' } }), ['listed', 'watched']);
  assert.deepEqual(p.targets, []);
});

test('a kubeconfig proxy-url wins: the proxy environment, NO_PROXY included, is ignored', { timeout: 20_000 }, async (t) => {
  const fromKubeconfig = await proxy(t);
  const fromEnv = await proxy(t);
  const api = await kubeTest(t, { 'proxy-url': fromKubeconfig.url });
  for (const env of [{ HTTPS_PROXY: fromEnv.url }, { HTTPS_PROXY: fromEnv.url, NO_PROXY: 'kube.test' }]) {
    fromKubeconfig.targets.length = 0;
    assert.deepEqual(await informerSees(t, { kubeconfig: api.kubeconfig, env }), ['listed', 'watched'], JSON.stringify(env));
    assert.deepEqual(new Set(fromKubeconfig.targets), new Set([`kube.test:${api.api.port}`]), JSON.stringify(env));
    assert.deepEqual(fromEnv.targets, [], JSON.stringify(env));
  }
});

test('HTTPS_PROXY=socks5://…: the SOCKS proxy is asked for kube.test by name and resolves it, as with kubectl', { timeout: 20_000 }, async (t) => {
  const api = await kubeTest(t);
  const p = await proxy(t, startSocks5Proxy);
  assert.deepEqual(await informerSees(t, { kubeconfig: api.kubeconfig, env: { HTTPS_PROXY: p.url } }), ['listed', 'watched']);
  assert.deepEqual(new Set(p.targets), new Set([`kube.test:${api.api.port}`]));
});

test('controller-lab watch uses HTTPS_PROXY from its environment; a malformed value is one line and exit 2', { timeout: 30_000 }, async (t) => {
  const api = await kubeTest(t);
  const p = await proxy(t);
  const args = ['watch', 'cm', '--kubeconfig', api.kubeconfig, '-o', 'none', '--exit-when-seen', 'default/watched'];
  const [through, malformed] = await Promise.all([
    runCli(args, { env: { ...CLEAN_ENV, https_proxy: p.url } }),
    runCli(args, { env: { ...CLEAN_ENV, HTTPS_PROXY: 'http://alice:s3cret@[proxy.corp' } }),
  ]);
  assert.equal(through.code, 0, through.stderr);
  assert.match(through.stderr, /^lists=1 watches=1 relists=0 410s=0 events=1 /m);
  assert.ok(p.targets.length >= 1 && p.targets.every((target) => target === `kube.test:${api.api.port}`), p.targets.join(' '));
  assert.equal(malformed.code, 2, malformed.stderr);
  assert.equal(malformed.stderr, 'controller-lab watch: HTTPS_PROXY is not a valid proxy URL: "http://alice:***@[proxy.corp"\n');
});

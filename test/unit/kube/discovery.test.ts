import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCluster } from '../../../src/kube/cluster.ts';
import { UnknownResourceError, describeFailure } from '../../../src/kube/errors.ts';
import { scratchDir, serveDiscovery, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';

for (const form of ['legacy', 'aggregated'] as const) {
  test(`${form} discovery lists every served resource of every version, subresources left out`, async (t) => {
    const api = await startLoopbackApi();
    const { dir, cleanup } = scratchDir();
    const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }) });
    t.after(async () => (cluster.close(), await api.close(), cleanup()));
    serveDiscovery(api, form);
    const d = await cluster.discover();
    assert.deepEqual(
      d.resources.map((r) => `${r.resource}.${r.version}.${r.group}`),
      ['configmaps.v1.', 'namespaces.v1.', 'events.v1.', 'pods.v1.', 'deployments.v1.apps', 'events.v1.events.k8s.io', 'widgets.v1.example.com', 'widgets.v1beta1.example.com'],
    );
    const ns = d.resources.find((r) => r.resource === 'namespaces');
    assert.deepEqual(ns, { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], singularName: 'namespace', verbs: ['list', 'watch'] });
    assert.equal(d.groups.find((g) => g.name === 'example.com')?.preferredVersion, 'v1');
    assert.match(String(api.requests.find((r) => r.path === '/apis')?.headers.accept), /as=APIGroupDiscoveryList.*application\/json$/);
    if (form === 'aggregated') assert.equal(api.requests.length, 2, 'aggregated discovery needs only /api and /apis');

    const resolved = async (name: string) => {
      const r = await cluster.resolve(name);
      return `${r.resource}.${r.version}.${r.group}`;
    };
    assert.equal(await resolved('configmaps'), 'configmaps.v1.');
    assert.equal(await resolved('configmap'), 'configmaps.v1.');
    assert.equal(await resolved('cm'), 'configmaps.v1.');
    assert.equal(await resolved('ConfigMap'), 'configmaps.v1.');
    assert.equal(await resolved('deploy'), 'deployments.v1.apps');
    assert.equal(await resolved('deployments.apps'), 'deployments.v1.apps');
    assert.equal(await resolved('deployments.v1.apps'), 'deployments.v1.apps');
    assert.equal(await resolved('widgets.example.com'), 'widgets.v1.example.com');
    assert.equal(await resolved('widget'), 'widgets.v1.example.com');
    assert.equal(await resolved('widgets.v1beta1.example.com'), 'widgets.v1beta1.example.com');
    assert.equal(await resolved('events'), 'events.v1.', 'the core group comes first, as with kubectl');
    assert.equal(await resolved('events.events.k8s.io'), 'events.v1.events.k8s.io');
    for (const unknown of ['gizmos', 'deployments.batch', 'widgets.v2.example.com']) {
      await assert.rejects(cluster.resolve(unknown), (err: unknown) => err instanceof UnknownResourceError && describeFailure(err).kind === 'unknownResource' && err.message.includes(`"${unknown}"`));
    }
    await assert.rejects(cluster.resolve('widge'), /did you mean "widgets.example.com"/);
  });
}

test('a group version whose list fails is reported, the rest of discovery still works', async (t) => {
  const api = await startLoopbackApi();
  const { dir, cleanup } = scratchDir();
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }) });
  t.after(async () => (cluster.close(), await api.close(), cleanup()));
  serveDiscovery(api, 'legacy');
  api.route('/apis/example.com/v1beta1', (req, res) => {
    res.writeHead(503);
    res.end();
  });
  const d = await cluster.discover();
  assert.deepEqual(d.failed.map((f) => f.groupVersion), ['example.com/v1beta1']);
  assert.equal((await cluster.resolve('wd')).version, 'v1');
});

// A core kind named by its plural or singular is listed at once: no discovery round trip (nor the
// parse of a cluster's whole discovery document) before the first list. A server that does not
// serve it is still told apart from any other 404, by discovery, afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from './support/runCli.ts';
import { configMap, startScriptedCluster } from './support/scriptedCluster.ts';

test('watch configmaps (or configmap) lists first, without asking discovery', async (t) => {
  const c = await startScriptedCluster({ items: [configMap('a', '5')] });
  t.after(() => c.close());
  for (const name of ['configmaps', 'configmap']) {
    c.api.requests.length = 0;
    const r = await runCli(['watch', name, '--kubeconfig', c.kubeconfig, '--exit-when-seen', 'default/a']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ADDED\s+default\s+a\s+5\s/m);
    const paths = c.api.requests.map((q) => q.path.split('?')[0]);
    assert.equal(paths[0], '/api/v1/namespaces/default/configmaps', `${name}: ${paths.join(' ')}`);
    assert.ok(!paths.includes('/api') && !paths.includes('/apis'), `${name}: ${paths.join(' ')}`);
  }
});

test('a core kind the server does not serve is named as discovery names it, exit 2', async (t) => {
  const c = await startScriptedCluster({});
  t.after(() => c.close());
  const r = await runCli(['watch', 'podtemplates', '--kubeconfig', c.kubeconfig]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /^controller-lab watch: the server doesn't have a resource type "podtemplates"$/m);
  assert.equal(r.stdout, '');
});

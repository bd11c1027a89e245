import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCluster } from '../../../src/kube/cluster.ts';
import { MAX_REQUESTS_IN_FLIGHT } from '../../../src/kube/transport.ts';
import { scratchDir, sendJson, startLoopbackApi, writeKubeconfig } from './support/loopbackApi.ts';

// A controller that sends thousands of writes at once must not open a connection for each: their
// handshakes together outlasted the connect timeout and most writes failed `timed out connecting`.

test('thousands of requests sent at once are answered, at most MAX_REQUESTS_IN_FLIGHT of them on the wire at a time', { timeout: 60_000 }, async (t) => {
  const api = await startLoopbackApi();
  let open = 0;
  let most = 0;
  api.route('/api/v1/namespaces/default/configmaps', (req, res) => {
    open++;
    most = Math.max(most, open);
    req.resume();
    req.on('end', () => setTimeout(() => {
      open--;
      sendJson(res, 201, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    }, 5));
  });
  const { dir, cleanup } = scratchDir();
  const cluster = loadCluster({ kubeconfig: writeKubeconfig(dir, { server: api.url }), connectTimeoutMs: 5000 });
  t.after(async () => {
    cluster.close();
    await api.close();
    cleanup();
  });
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'x-' } });
  const answers = await Promise.all(Array.from({ length: 3000 }, () => cluster.request<{ kind: string }>('/api/v1/namespaces/default/configmaps', { method: 'POST', body, headers: { 'Content-Type': 'application/json' } })));
  assert.equal(answers.filter((a) => a.kind === 'ConfigMap').length, 3000);
  assert.ok(most <= MAX_REQUESTS_IN_FLIGHT, `${most} requests were open at once`);
});

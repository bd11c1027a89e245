// A Pod's log, exec, attach, portforward, proxy and ephemeralcontainers over HTTP: with no kubelet,
// answered as kube-apiserver answers when it has none to reach (what `kubectl logs` and
// `kubectl exec` against an envtest cluster print).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const PODS = '/api/v1/namespaces/default/pods';

async function createPod(name: string, nodeName?: string): Promise<void> {
  const spec = { containers: [{ name: 'c', image: 'busybox' }], ...(nodeName ? { nodeName } : {}) };
  const r = await call(suite.server, 'POST', PODS, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec } });
  assert.equal(r.status, 201, r.body);
}

describe('pod connect subresources', () => {
  it('a missing Pod is the Pod\'s 404, not an unknown path', async () => {
    for (const sub of ['log', 'exec', 'attach', 'portforward']) {
      const r = await call(suite.server, 'GET', `${PODS}/nope/${sub}`);
      assert.equal(r.status, 404, sub);
      assert.equal(r.json().message, 'pods "nope" not found', sub);
    }
  });

  it('a Pod not on a node: its log is empty (204), exec and attach say it has no host', async () => {
    await createPod('pending');
    assert.equal((await call(suite.server, 'GET', `${PODS}/pending/log`)).status, 204);
    for (const sub of ['exec?command=ls', 'attach', 'portforward']) {
      const r = await call(suite.server, 'GET', `${PODS}/pending/${sub}`);
      assert.equal(r.status, 400, sub);
      assert.equal(r.json().message, 'pod pending does not have a host assigned');
    }
    assert.equal((await call(suite.server, 'GET', `${PODS}/pending/proxy`)).json().message, 'address not allowed');
  });

  it('a container the Pod does not have is a 400, before anything else is looked at', async () => {
    for (const sub of ['log?container=nope', 'exec?command=ls&container=nope', 'attach?container=nope']) {
      const r = await call(suite.server, 'GET', `${PODS}/pending/${sub}`);
      assert.equal(r.status, 400, sub);
      assert.equal(r.json().message, 'container nope is not valid for pod pending');
    }
  });

  it('a Pod on a node no Node object stands for: the node lookup\'s 404, named by the request\'s resource', async () => {
    await createPod('stray', 'node-gone');
    for (const sub of ['log', 'exec?command=ls', 'attach', 'portforward']) {
      const r = await call(suite.server, 'GET', `${PODS}/stray/${sub}`);
      assert.equal(r.status, 404, sub);
      assert.equal(r.json().message, 'pods "node-gone" not found');
      assert.deepEqual(r.json().details, { name: 'node-gone', kind: 'pods' });
    }
  });

  it('a Pod on a node: an empty log, and exec explains there is no kubelet', async () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } };
    assert.equal((await call(suite.server, 'POST', '/api/v1/nodes', { body: node })).status, 201);
    await createPod('placed', 'node-1');
    const log = await call(suite.server, 'GET', `${PODS}/placed/log`);
    assert.equal(log.status, 200);
    assert.equal(log.body, '');
    const exec = await call(suite.server, 'POST', `${PODS}/placed/exec?command=ls`);
    assert.equal(exec.status, 500);
    assert.match(exec.json().message, /^error dialing backend: node node-1 is simulated/);
  });

  it('ephemeralcontainers reads back the Pod', async () => {
    const r = await call(suite.server, 'GET', `${PODS}/placed/ephemeralcontainers`);
    assert.equal(r.status, 200);
    assert.equal(r.json().metadata.name, 'placed');
  });
});

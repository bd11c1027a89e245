// Strategic merge patches answered as kube-apiserver answers them: a merged list puts the patch's
// items first in the patch's order (or its $setElementOrder's), then what only the server had, so
// `kubectl patch` adding a container or a port shows the same object; malformed directives fail
// with apimachinery's words and status.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const smp = { contentType: 'application/strategic-merge-patch+json' };

async function deployment(name: string): Promise<void> {
  const body = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, finalizers: ['example.com/a'] },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }] } },
    },
  };
  assert.equal((await call(suite.server, 'POST', DEPLOYMENTS, { body })).status, 201);
}
const patch = (name: string, body: unknown) => call(suite.server, 'PATCH', `${DEPLOYMENTS}/${name}`, { ...smp, body });
const containers = (body: string) => JSON.parse(body).spec.template.spec.containers;

describe('strategic merge order', () => {
  it('new list items come first, then the server\'s', async () => {
    await deployment('order');
    const r = await patch('order', { metadata: { finalizers: ['example.com/b'] }, spec: { template: { spec: { containers: [{ name: 'side', image: 'busybox' }, { name: 'c', ports: [{ containerPort: 443 }] }] } } } });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(containers(r.body).map((c: { name: string }) => c.name), ['side', 'c']);
    assert.deepEqual(containers(r.body)[1].ports.map((p: { containerPort: number }) => p.containerPort), [443, 80]);
    assert.deepEqual(JSON.parse(r.body).metadata.finalizers, ['example.com/b', 'example.com/a']);
  });

  it('items the server had keep their order around the patch\'s', async () => {
    await deployment('keep');
    const r = await patch('keep', { spec: { template: { spec: { containers: [{ name: 'c', env: [{ name: 'B', value: '20' }, { name: 'C', value: '3' }] }] } } } });
    assert.deepEqual(containers(r.body)[0].env.map((e: { name: string }) => e.name), ['A', 'B', 'C']);
  });

  it('$setElementOrder sets the order of the merged list', async () => {
    await deployment('set-order');
    const r = await patch('set-order', { spec: { template: { spec: { containers: [{ name: 'c', '$setElementOrder/env': [{ name: 'B' }, { name: 'A' }] }] } } } });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(containers(r.body)[0].env.map((e: { name: string }) => e.name), ['B', 'A']);
  });

  it('malformed directives: apimachinery\'s words, 400 for a format, 500 for what it passes on', async () => {
    await deployment('bad');
    const cases: [unknown, number, string][] = [
      [{ metadata: { $deleteFromPrimitiveList: { finalizers: ['x'] } } }, 400, 'invalid patch format of primitive list'],
      [{ spec: { template: { spec: { $setElementOrder_containers: [] } } } }, 400, 'invalid patch format of setElementOrder list'],
      [{ spec: { template: { metadata: { labels: { $patch: 'bogus' } } } } }, 500, 'unknown patch type: bogus in map: map[$patch:bogus]'],
      [{ spec: { template: { spec: { containers: [{ image: 'busybox' }] } } } }, 500, 'map: map[image:busybox] does not contain declared merge key: name'],
    ];
    for (const [body, status, message] of cases) {
      const r = await patch('bad', body);
      assert.equal(r.status, status, r.body);
      assert.equal(r.json().message, message);
    }
  });
});

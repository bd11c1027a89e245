// status.qosClass as kube-apiserver sets it on a Pod's create, from its containers' cpu and memory
// requests and limits (quantities compared exactly: 0.1 cpu is 100m, 1Gi is 1024Mi).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';

const suite = suiteServer();
const PODS = '/api/v1/namespaces/default/pods';

type Amounts = Record<string, string>;
const container = (name: string, requests?: Amounts, limits?: Amounts) => ({ name, image: 'agnhost', resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } });

async function qosOf(name: string, containers: unknown[], initContainers: unknown[] = []): Promise<string> {
  const created = await call(suite.server, 'POST', PODS, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers, initContainers } } });
  assert.equal(created.status, 201, created.body);
  return (await call(suite.server, 'GET', `${PODS}/${name}`)).json().status.qosClass;
}

describe('Pod QoS class', () => {
  it('is Guaranteed when every container limits cpu and memory at what it requests', async () => {
    const both = { cpu: '100m', memory: '100Mi' };
    assert.equal(await qosOf('guaranteed', [container('a', both, both)]), 'Guaranteed');
    assert.equal(await qosOf('same-amounts', [container('a', { cpu: '0.1', memory: '1Gi' }, { cpu: '100m', memory: '1024Mi' })]), 'Guaranteed');
    assert.equal(await qosOf('limits-only', [container('a', undefined, both)]), 'Guaranteed', 'requests default to the limits');
  });

  it('is BestEffort without cpu or memory amounts (zero and other resources do not count)', async () => {
    assert.equal(await qosOf('bare', [container('a')]), 'BestEffort');
    assert.equal(await qosOf('zero-and-storage', [container('a', { cpu: '0', 'ephemeral-storage': '1Gi' })]), 'BestEffort');
  });

  it('is Burstable when a container, init containers included, falls short of that', async () => {
    const both = { cpu: '100m', memory: '100Mi' };
    assert.equal(await qosOf('higher-limit', [container('a', both, { cpu: '200m', memory: '100Mi' })]), 'Burstable');
    assert.equal(await qosOf('one-unlimited', [container('a', both, both), container('b')]), 'Burstable');
    assert.equal(await qosOf('init-unlimited', [container('a', both, both)], [container('init', { cpu: '50m' })]), 'Burstable');
  });
});

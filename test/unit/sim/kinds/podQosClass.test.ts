import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suiteServer } from '../server/suiteServer.ts';
import { call } from '../server/httpClient.ts';

// The API server writes a new Pod's QoS class into status.qosClass, from its containers' cpu and
// memory: Guaranteed (limits for both, requests equal), Burstable (anything less), BestEffort (none).

const s = suiteServer();

async function qosOf(name: string, resources: Record<string, Record<string, string>>): Promise<string> {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'agnhost:2.45', resources }] } };
  const answer = await call(s.server, 'POST', '/api/v1/namespaces/default/pods', { body });
  assert.equal(answer.status, 201, answer.body);
  const read = (await call(s.server, 'GET', `/api/v1/namespaces/default/pods/${name}`)).json();
  return read.status.qosClass;
}

test('a new Pod has its QoS class in status', async () => {
  const both = { cpu: '100m', memory: '100Mi' };
  assert.equal(await qosOf('guaranteed', { limits: both, requests: both }), 'Guaranteed');
  assert.equal(await qosOf('limits-only', { limits: both }), 'Guaranteed', 'requests default to the limits');
  assert.equal(await qosOf('burstable', { requests: { cpu: '100m' } }), 'Burstable');
  assert.equal(await qosOf('unequal', { requests: { cpu: '50m', memory: '100Mi' }, limits: both }), 'Burstable');
  assert.equal(await qosOf('best-effort', {}), 'BestEffort');
  assert.equal(await qosOf('other-resources-only', { requests: { 'ephemeral-storage': '1Gi' } }), 'BestEffort');
});

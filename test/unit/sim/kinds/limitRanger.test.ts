import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suiteServer } from '../server/suiteServer.ts';
import { call } from '../server/httpClient.ts';

// The API server's LimitRanger admission: a new Pod gets its namespace's LimitRange defaults for
// what its containers leave out, then must keep within min and max (403 otherwise).

const s = suiteServer();
const PODS = '/api/v1/namespaces/default/pods';

function resources(cpu: string, memory: string, storage: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (cpu) out.cpu = cpu;
  if (memory) out.memory = memory;
  if (storage) out['ephemeral-storage'] = storage;
  return out;
}

function pod(name: string, requests: Record<string, string>, limits: Record<string, string>): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'pause', image: 'pause:3.9', resources: { requests, limits } }] } };
}

test('a LimitRange fills in default requests and limits, and refuses pods under its min or over its max', async () => {
  const limitRange = {
    apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits' },
    spec: { limits: [{ type: 'Container', min: resources('50m', '100Mi', '100Gi'), max: resources('500m', '500Mi', '500Gi'), default: resources('500m', '500Mi', '500Gi'), defaultRequest: resources('100m', '200Mi', '200Gi') }] },
  };
  assert.equal((await call(s.server, 'POST', '/api/v1/namespaces/default/limitranges', { body: limitRange })).status, 201);

  const bare = await call(s.server, 'POST', PODS, { body: pod('bare', {}, {}) });
  assert.equal(bare.status, 201, bare.body);
  assert.deepEqual(bare.json().spec.containers[0].resources, { requests: resources('100m', '200Mi', '200Gi'), limits: resources('500m', '500Mi', '500Gi') });
  assert.equal(bare.json().metadata.annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu, ephemeral-storage, memory request for container pause; cpu, ephemeral-storage, memory limit for container pause');

  // A limit with no request makes the request (pod defaulting), before the LimitRange's defaults.
  const partial = await call(s.server, 'POST', PODS, { body: pod('partial', resources('', '150Mi', '150Gi'), resources('300m', '', '')) });
  assert.equal(partial.status, 201, partial.body);
  assert.deepEqual(partial.json().spec.containers[0].resources, { requests: resources('300m', '150Mi', '150Gi'), limits: resources('300m', '500Mi', '500Gi') });

  const small = await call(s.server, 'POST', PODS, { body: pod('small', resources('10m', '150Mi', '150Gi'), {}) });
  assert.equal(small.status, 403);
  assert.equal(small.json().message, 'pods "small" is forbidden: minimum cpu usage per Container is 50m, but request is 10m');
  const big = await call(s.server, 'POST', PODS, { body: pod('big', resources('600m', '600Mi', '600Gi'), {}) });
  assert.equal(big.status, 403);
  assert.match(big.json().message, /^pods "big" is forbidden: \[maximum cpu usage per Container is 500m, but request is 600m, /);

  assert.equal((await call(s.server, 'DELETE', '/api/v1/namespaces/default/limitranges/limits')).status, 200);
  assert.equal((await call(s.server, 'POST', PODS, { body: pod('big', resources('600m', '600Mi', '600Gi'), {}) })).status, 201, 'with the LimitRange gone');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envPrefix, managerEnv } from '../../../../src/setup/goProject/localRunEnv.ts';

// The environment a kubebuilder manager gets outside a cluster: what its Deployment sets.

test('the manager container\'s literal env values; valueFrom, other containers and other kinds are left out', () => {
  const manifest = `apiVersion: v1
kind: Namespace
metadata: { name: system }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: controller-manager }
spec:
  template:
    spec:
      containers:
      - name: kube-rbac-proxy
        env: [{ name: PROXY, value: "1" }]
      - name: manager
        env:
        - { name: IMAGE, value: "busybox:1.36.1" }
        - { name: REPLICAS, value: 3 }
        - { name: NS, valueFrom: { fieldRef: { fieldPath: metadata.namespace } } }
`;
  assert.deepEqual(managerEnv(manifest), { IMAGE: 'busybox:1.36.1', REPLICAS: '3' });
  assert.deepEqual(managerEnv('kind: Deployment\nspec: { template: { spec: { containers: [{ name: app, env: [{ name: A, value: b }] }] } } }\n'), { A: 'b' }, 'a lone container is the manager');
  assert.deepEqual(managerEnv(''), {});
  assert.deepEqual(managerEnv('{ not yaml'), {});
});

test('a prefix for a shell: plain values as they are, others single-quoted', () => {
  assert.equal(envPrefix({}), '');
  assert.equal(envPrefix({ IMAGE: 'example.com/busybox:1.36.1', ENABLE_WEBHOOKS: 'false' }), 'IMAGE=example.com/busybox:1.36.1 ENABLE_WEBHOOKS=false ');
  assert.equal(envPrefix({ ARGS: "-m 64 -o it's" }), "ARGS='-m 64 -o it'\\''s' ");
});

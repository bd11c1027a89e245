import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch } from '../../../../src/sim/patch/mergePatch.ts';
import { applyJsonPatch } from '../../../../src/sim/patch/jsonPatch.ts';
import { applyStrategicMergePatch } from '../../../../src/sim/patch/strategicMergePatch.ts';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { patchTypeOf } from '../../../../src/sim/store/types.ts';

test('merge patch (RFC 7386): maps merge, null deletes, arrays and scalars replace', () => {
  const target = { a: 1, b: { c: 2, d: 3 }, list: [1, 2], keep: true };
  assert.deepEqual(applyMergePatch(target, { a: null, b: { c: 9 }, list: [3], e: 'new' }), { b: { c: 9, d: 3 }, list: [3], keep: true, e: 'new' });
  assert.deepEqual(target, { a: 1, b: { c: 2, d: 3 }, list: [1, 2], keep: true }, 'the target is not modified');
});

test('JSON patch (RFC 6902): add, remove, replace, move, copy, test', () => {
  const doc = { a: { b: [1, 2, 3] }, s: 'x' };
  const out = applyJsonPatch(doc, [
    { op: 'add', path: '/a/b/1', value: 9 },
    { op: 'add', path: '/a/b/-', value: 4 },
    { op: 'remove', path: '/a/b/0' },
    { op: 'replace', path: '/s', value: 'y' },
    { op: 'copy', from: '/s', path: '/t' },
    { op: 'move', from: '/t', path: '/u~1v' },
    { op: 'test', path: '/u~1v', value: 'y' },
  ]);
  assert.deepEqual(out, { a: { b: [9, 2, 3, 4] }, s: 'y', 'u/v': 'y' });
});

test('a failed JSON patch test op rejects the whole patch with 422', () => {
  assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 2 }, { op: 'test', path: '/a', value: 1 }]),
    (e: unknown) => e instanceof ApiError && e.code === 422);
  assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '/missing' }]), (e: unknown) => e instanceof ApiError && e.code === 422);
});

const deployment = {
  spec: {
    replicas: 1,
    template: {
      spec: {
        containers: [
          { name: 'web', image: 'nginx:1', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] },
          { name: 'sidecar', image: 'envoy:1' },
        ],
        volumes: [{ name: 'data', emptyDir: {} }],
      },
    },
  },
  metadata: { finalizers: ['a'] },
};

test('strategic merge: containers merge by name, env by name, ports by containerPort', () => {
  const out = applyStrategicMergePatch(deployment, {
    spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:2', env: [{ name: 'B', value: '3' }, { name: 'C', value: '4' }], ports: [{ containerPort: 443 }] }] } } },
  }) as typeof deployment;
  const [web, sidecar] = out.spec.template.spec.containers;
  assert.equal(web?.image, 'nginx:2');
  assert.deepEqual(web?.env, [{ name: 'A', value: '1' }, { name: 'B', value: '3' }, { name: 'C', value: '4' }]);
  // The patch's items first, then the server's (apimachinery's normalizeElementOrder).
  assert.deepEqual(web?.ports, [{ containerPort: 443 }, { containerPort: 80 }]);
  assert.deepEqual(sidecar, { name: 'sidecar', image: 'envoy:1' }, 'other containers are kept');
});

test('strategic merge directives: $patch delete in a list, $patch replace, $retainKeys, $deleteFromPrimitiveList', () => {
  const out = applyStrategicMergePatch(deployment, {
    metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] },
    spec: {
      template: {
        spec: {
          containers: [{ name: 'sidecar', $patch: 'delete' }],
          volumes: [{ $patch: 'replace' }, { name: 'cache', emptyDir: {} }],
          '$setElementOrder/containers': [{ name: 'web' }],
        },
      },
      $retainKeys: ['template'],
    },
  }) as { spec: { replicas?: number; template: { spec: { containers: { name: string }[]; volumes: unknown[] } } }; metadata: { finalizers: string[] } };
  assert.deepEqual(out.spec.template.spec.containers.map((c) => c.name), ['web']);
  assert.deepEqual(out.spec.template.spec.volumes, [{ name: 'cache', emptyDir: {} }]);
  assert.equal(out.spec.replicas, undefined, '$retainKeys dropped replicas');
  assert.deepEqual(out.metadata.finalizers, []);
});

test('strategic merge: lists without a merge key replace; null deletes; finalizers union', () => {
  const out = applyStrategicMergePatch({ spec: { args: ['a', 'b'], x: 1 }, metadata: { finalizers: ['a'] } }, { spec: { args: ['c'], x: null }, metadata: { finalizers: ['b', 'a'] } });
  assert.deepEqual(out, { spec: { args: ['c'] }, metadata: { finalizers: ['b', 'a'] } });
});

test('patch content types map to patch kinds; others are unsupported', () => {
  assert.equal(patchTypeOf('application/strategic-merge-patch+json'), 'strategic');
  assert.equal(patchTypeOf('application/merge-patch+json; charset=utf-8'), 'merge');
  assert.equal(patchTypeOf('application/json-patch+json'), 'json');
  assert.equal(patchTypeOf('text/plain'), undefined);
});

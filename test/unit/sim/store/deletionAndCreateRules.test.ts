// Metadata rules kube-apiserver enforces that clients notice: no finalizer may be added once an
// object is being deleted, and a create carrying a resourceVersion is refused by the storage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { CM, configMap, newCluster } from './helpers.ts';

test('adding a finalizer to an object being deleted is 422, the cause listed twice as the server does', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', { ...configMap('f'), metadata: { name: 'f', finalizers: ['x.io/f'] } });
  cluster.delete(CM, 'default', 'f');
  assert.throws(() => cluster.patch(CM, 'default', 'f', 'merge', { metadata: { finalizers: ['x.io/f', 'y.io/g'] } }), (e: unknown) => {
    const message = 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"y.io/g"}';
    assert.ok(e instanceof ApiError && e.code === 422);
    assert.equal(e.message, `ConfigMap "f" is invalid: metadata.finalizers: ${message}`);
    assert.deepEqual(e.status?.details?.causes?.map((c) => c.message), [message, message]);
    return true;
  });
  // Removing the last finalizer still completes the deletion.
  cluster.patch(CM, 'default', 'f', 'merge', { metadata: { finalizers: null } });
  assert.throws(() => cluster.get(CM, 'default', 'f'), (e: unknown) => e instanceof ApiError && e.code === 404);
});

test('a create carrying a resourceVersion is a 500 with no reason, as the storage answers it; "0" is allowed', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.create(CM, 'default', { ...configMap('r'), metadata: { name: 'r', resourceVersion: '5' } }), (e: unknown) => {
    assert.ok(e instanceof ApiError && e.code === 500);
    assert.equal(e.status?.message, 'resourceVersion should not be set on objects to be created');
    assert.equal(e.status?.reason, undefined);
    return true;
  });
  const created = cluster.create(CM, 'default', { ...configMap('z'), metadata: { name: 'z', resourceVersion: '0' } });
  assert.notEqual(created.object.metadata.resourceVersion, '0');
});

test('creating a name whose object is still being deleted says so in the 409', () => {
  const { cluster } = newCluster();
  cluster.create(CM, 'default', { ...configMap('busy'), metadata: { name: 'busy', finalizers: ['x.io/f'] } });
  cluster.delete(CM, 'default', 'busy');
  assert.throws(() => cluster.create(CM, 'default', configMap('busy')),
    (e: unknown) => e instanceof ApiError && e.code === 409 && e.message === 'object is being deleted: configmaps "busy" already exists');
});

test('a PUT whose body names another object (or namespace) is 400 even when the URL names nothing stored', () => {
  const { cluster } = newCluster();
  assert.throws(() => cluster.update(CM, 'default', 'missing', configMap('other')),
    (e: unknown) => e instanceof ApiError && e.code === 400 && e.message === 'the name of the object (other) does not match the name on the URL (missing)');
  assert.throws(() => cluster.update(CM, 'default', 'missing', { ...configMap('missing'), metadata: { name: 'missing', namespace: 'elsewhere' } }),
    (e: unknown) => e instanceof ApiError && e.code === 400 && e.message === 'the namespace of the provided object does not match the namespace sent on the request');
});

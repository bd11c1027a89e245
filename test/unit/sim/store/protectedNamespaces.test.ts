// default, kube-system and kube-public cannot be deleted (kube-apiserver's NamespaceLifecycle
// admission): 403 Forbidden with the server's message, dry run or not; other namespaces can.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { newCluster, NS } from './helpers.ts';

test('deleting default, kube-system or kube-public is forbidden and changes nothing', () => {
  const { cluster } = newCluster();
  const rv = cluster.resourceVersion;
  for (const name of ['default', 'kube-system', 'kube-public']) {
    for (const dryRun of [false, true]) {
      assert.throws(() => cluster.delete(NS, '', name, {}, { dryRun }), (err: unknown) => {
        assert.ok(err instanceof ApiError);
        assert.equal(err.code, 403);
        assert.equal(err.reason, 'Forbidden');
        assert.equal(err.message, `namespaces "${name}" is forbidden: this namespace may not be deleted`);
        assert.deepEqual(err.status?.details, { name, kind: 'namespaces' });
        return true;
      });
    }
    assert.equal(cluster.get(NS, '', name).object.metadata.deletionTimestamp, undefined);
  }
  assert.equal(cluster.resourceVersion, rv);
});

test('kube-node-lease and the user\'s namespaces can be deleted', () => {
  const { cluster } = newCluster();
  cluster.create(NS, '', { metadata: { name: 'mine' } });
  for (const name of ['kube-node-lease', 'mine']) {
    cluster.delete(NS, '', name);
    assert.throws(() => cluster.get(NS, '', name), (err: unknown) => err instanceof ApiError && err.code === 404);
  }
});

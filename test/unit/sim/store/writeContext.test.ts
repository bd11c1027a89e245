import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionPoints, WriteRecord } from '../../../../src/sim/store/types.ts';
import { CM, configMap, newCluster } from './helpers.ts';

// Every store write is handed its request's context (who writes, how the body decodes, admission):
// nothing about a running request is kept between calls, and the work a write causes runs with a
// context of its own.

const ALICE = { client: { userAgent: 'alice/1.0', tokenId: 't1' } };

test('a write and the garbage collection it causes are reported as the writer client’s', () => {
  const { cluster } = newCluster();
  const owner = cluster.create(CM, 'default', configMap('owner')).object;
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid ?? '' };
  cluster.create(CM, 'default', { ...configMap('dependent'), metadata: { name: 'dependent', ownerReferences: [ref] } });
  const writes: WriteRecord[] = [];
  cluster.onWrite((w) => writes.push(w));
  cluster.delete(CM, 'default', 'owner', {}, ALICE);
  cluster.create(CM, 'default', configMap('later'));
  assert.deepEqual(writes.map((w) => `${w.type} ${w.key} ${w.client?.userAgent ?? '-'}`), [
    'DELETED default/owner alice/1.0',
    'DELETED default/dependent alice/1.0',
    'ADDED default/later -',
  ]);
});

test('admission sees the cascade a delete makes itself, not the garbage collection that follows it', () => {
  const deletedWith = (propagationPolicy: 'Background' | 'Foreground'): string[] => {
    const { cluster } = newCluster();
    const owner = cluster.create(CM, 'default', configMap('owner')).object;
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid ?? '' };
    cluster.create(CM, 'default', { ...configMap('dependent'), metadata: { name: 'dependent', ownerReferences: [ref] } });
    const validated: string[] = [];
    const admission: AdmissionPoints = { mutate: (obj) => obj, validate: (_obj, old) => void validated.push(old?.metadata.name ?? '') };
    cluster.delete(CM, 'default', 'owner', { propagationPolicy }, { ...ALICE, admission });
    assert.equal(cluster.list(CM, { namespace: 'default' }).items.length, 0);
    return validated;
  };
  assert.deepEqual(deletedWith('Background'), ['owner']);
  assert.deepEqual(deletedWith('Foreground'), ['owner', 'dependent']);
});

test('fields a body named twice count for that write alone', () => {
  const { cluster } = newCluster();
  const strict = { fieldValidation: 'Strict' as const, duplicateFields: ['data.k'] };
  assert.throws(() => cluster.create(CM, 'default', configMap('twice'), strict), /strict decoding error: duplicate field "data.k"/);
  assert.equal(cluster.create(CM, 'default', configMap('twice'), { fieldValidation: 'Strict' }).object.metadata.name, 'twice');
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HistoryEvent } from '../../../../src/sim/store/history.ts';
import type { ResourceTable } from '../../../../src/sim/store/mvccStore.ts';
import { OwnerIndex } from '../../../../src/sim/store/ownerIndex.ts';

// The garbage collector's memory of deleted owners is bounded: a sim that deletes many objects keeps
// the latest 100,000 uids, so a dependent of a long-gone owner is no longer known as dangling.

const table = {} as ResourceTable;
const deleted = (uid: string): HistoryEvent => ({ type: 'DELETED', key: uid, rv: 1, object: { object: { metadata: { uid } } } } as unknown as HistoryEvent);
const ownedBy = (uid: string) => ({ metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: uid, uid }] } });

test('deleted owners are remembered up to 100,000, the oldest forgotten first', () => {
  const owners = new OwnerIndex();
  for (let i = 0; i <= 100_000; i++) owners.observe(table, deleted(`uid-${i}`));
  assert.equal(owners.ownersAllGone(ownedBy('uid-100000')), true);
  assert.equal(owners.ownersAllGone(ownedBy('uid-1')), true);
  assert.equal(owners.ownersAllGone(ownedBy('uid-0')), false, 'the oldest is forgotten');
  assert.equal(owners.ownersAllGone(ownedBy('never-seen')), false);
});

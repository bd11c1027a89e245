import { test } from 'node:test';
import assert from 'node:assert/strict';
import { laggingListRequest } from '../../../../src/sim/faults/staleView.ts';

// A lagging watch cache's answers to lists: never newer than where it lags, never older than asked.

test('lists of the latest state, of any state, or not older than an earlier version are answered exactly as of the lagging one', () => {
  const asOf = 40;
  assert.deepEqual(laggingListRequest({ namespace: 'a', limit: 10 }, asOf), { namespace: 'a', limit: 10, resourceVersion: '40', resourceVersionMatch: 'Exact' });
  assert.deepEqual(laggingListRequest({ resourceVersion: '0', limit: 10 }, asOf), { resourceVersion: '40', resourceVersionMatch: 'Exact' });
  assert.deepEqual(laggingListRequest({ resourceVersion: '30' }, asOf), { resourceVersion: '40', resourceVersionMatch: 'Exact' });
  assert.deepEqual(laggingListRequest({ resourceVersion: '50', resourceVersionMatch: 'NotOlderThan' }, asOf), { resourceVersion: '50', resourceVersionMatch: 'Exact' });
});

test('exact lists, continued ones and unreadable versions are left as asked', () => {
  for (const request of [{ resourceVersion: '12', resourceVersionMatch: 'Exact' as const }, { continue: 'token' }, { resourceVersion: 'x' }]) {
    assert.deepEqual(laggingListRequest(request, 40), request);
  }
});

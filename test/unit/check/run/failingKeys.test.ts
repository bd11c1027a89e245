import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReconcileRecord } from '../../../../src/runtime/index.ts';
import type { TracedReconcile } from '../../../../src/check/run/checkRun.ts';
import { failingKeys } from '../../../../src/check/run/failingKeys.ts';

// A key is still failing when its last reconcile of the run ended in an error: one that failed and
// then succeeded is not, whatever came between.

function reconcile(seq: number, key: string, error?: string): TracedReconcile {
  const outcome = error ? { kind: 'error' as const, error: { name: 'Error', message: error, terminal: false } } : { kind: 'success' as const, result: {} };
  const record = { seq, controller: 'gate', forKind: { apiVersion: 'lab.example.com/v1', kind: 'Gate' }, key, outcome } as unknown as ReconcileRecord;
  return { incarnation: 1, record };
}

test('the keys whose last reconcile failed, with its error', () => {
  const runs = [
    reconcile(1, 'default/a', 'boom'),
    reconcile(2, 'default/b', 'conflict'),
    reconcile(3, 'default/b'),
    reconcile(4, 'default/c'),
    reconcile(5, 'default/a', 'still boom'),
    reconcile(6, 'default/c', 'late'),
  ];
  assert.deepEqual(failingKeys(runs), [
    { request: 'Gate default/a', error: 'still boom' },
    { request: 'Gate default/c', error: 'late' },
  ]);
  assert.deepEqual(failingKeys([]), []);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeRecord } from '../../../src/runtime/traceFormat.ts';
import type { ReconcileRecord } from '../../../src/controllerProtocol/index.ts';

// The line `controller-lab run` prints per reconcile, whoever timed it: a Go program's durations
// come to the nanosecond, the TypeScript host's to the millisecond.

function record(durationMs: number | undefined): ReconcileRecord {
  return {
    seq: 1,
    forKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    key: 'default/app',
    trigger: [{ type: 'ADDED', kind: 'ConfigMap', key: 'default/app', resourceVersion: '7', via: 'for' }],
    writes: [],
    outcome: { kind: 'success', result: {} },
    ...(durationMs === undefined ? {} : { durationMs }),
  } as unknown as ReconcileRecord;
}

test('a reconcile\'s duration: whole milliseconds as they come, two significant digits below 100 ms, none past it', () => {
  const shown = (ms: number | undefined) => /\[(.*) ms\]$/.exec(describeRecord(record(ms)))?.[1];
  assert.equal(describeRecord(record(15)), '#1 ConfigMap default/app (ADDED rv 7) → ok [15 ms]');
  assert.equal(shown(0), '0');
  assert.equal(shown(0.001913), '0.0019');
  assert.equal(shown(0.049524), '0.05');
  assert.equal(shown(2.5), '2.5');
  assert.equal(shown(10.925343), '11');
  assert.equal(shown(143.27), '143');
  assert.equal(shown(undefined), '?');
});

import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { QueueSnapshot, ReconcileRecord } from '../../../src/runtime/index.ts';
import { RECONCILE_SCOPES, type ScopeContext } from '../../../src/debug/reconcileScopes.ts';

// The Variables view of a reconcile stop: one scope per aspect of the reconcile, in a fixed order.

function record(partial: Partial<ReconcileRecord> = {}): ReconcileRecord {
  return {
    seq: 4,
    reconcileId: 'r4',
    controller: 'mirror',
    worker: 1,
    forKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    key: 'default/a',
    request: { namespace: 'default', name: 'a' },
    trigger: [{ type: 'MODIFIED', kind: 'ConfigMap', apiVersion: 'v1', key: 'default/a', resourceVersion: '12', via: 'for', at: 1 }],
    cacheResourceVersion: '12',
    cacheSeq: 7,
    startedAt: 1,
    writes: [],
    logs: [],
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'a', resourceVersion: '12' } },
    ...partial,
  };
}

const QUEUE: QueueSnapshot = { at: 1, depth: 1, processing: 1, waiting: 0, keys: [{ key: 'default/b', state: 'queued', retries: 0 }] };
const context: ScopeContext = { queueFor: () => QUEUE, dataChangesOf: () => [] };
const shown = (r: ReconcileRecord, c = context) => RECONCILE_SCOPES.filter((s) => s.shown?.(r, c) ?? true);
const scopes = (r: ReconcileRecord, c = context) => Object.fromEntries(shown(r, c).map((s) => [s.label(r), s.value(r, c)]));

describe('reconcile scopes', () => {
  it('shows a held reconcile: request, cached object, trigger, queue; no writes or result yet', () => {
    const r = record();
    assert.deepEqual(shown(r).map((s) => `${s.label(r)}${s.expensive ? ' (collapsed)' : ''}`), ['Request', 'Object', 'Trigger (collapsed)', 'Queue (collapsed)', 'Writes', 'Result']);
    const v = scopes(r);
    assert.equal((v.Object as { metadata: { resourceVersion: string } }).metadata.resourceVersion, '12');
    assert.deepEqual(Object.keys(v.Trigger as object), ['0: MODIFIED ConfigMap default/a']);
    assert.deepEqual(Object.keys((v.Queue as { keys: object }).keys), ['default/b']);
    assert.deepEqual(v.Writes, { '(not run yet)': 'writes appear after the reconcile runs' });
    assert.deepEqual(Object.keys(v.Result as object), ['(not run yet)']);
  });

  it('shows a finished reconcile: its writes and, when it threw, an Error scope with the requeue decision', () => {
    const r = record({
      durationMs: 3,
      writes: [{ verb: 'create', apiVersion: 'v1', kind: 'Secret', namespace: 'default', name: 'a-rv12', resourceVersion: '13', at: 2, durationMs: 1 }],
      outcome: { kind: 'error', error: { name: 'Error', message: 'boom', terminal: false } },
      decision: { action: 'addRateLimited', reason: 'error' },
    });
    const v = scopes(r);
    assert.deepEqual(Object.keys(v.Writes as object), ['0: create Secret default/a-rv12']);
    assert.equal(v.Result, undefined, 'the Result scope is called Error');
    assert.deepEqual(v.Error, { name: 'Error', message: 'boom', terminal: false, requeue: { action: 'addRateLimited', reason: 'error' }, durationMs: 3 });
    assert.deepEqual(Object.keys(scopes(record({ object: undefined })).Object as object), ['(not in cache)']);
  });

  it('shows a watched field a reconcile wrote first: before, after and the write that made it', () => {
    const write = { verb: 'update' as const, apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a-mirror', resourceVersion: '14', at: 2, durationMs: 1 };
    const r = record({ durationMs: 3, writes: [write], outcome: { kind: 'success', result: {} }, decision: { action: 'forget' } });
    const change = { breakpointId: 1, watch: 'ConfigMap default/a-mirror .data.mode', kind: 'ConfigMap', key: 'default/a-mirror', field: '.data.mode', type: 'MODIFIED' as const, resourceVersion: '14', before: 'on', after: 'off', deltaSeq: 9, write: { index: 0, record: write } };
    const withChange: ScopeContext = { ...context, dataChangesOf: () => [change] };
    assert.equal(shown(r, withChange)[0]?.label(r), 'Data Breakpoint');
    const v = scopes(r, withChange)['Data Breakpoint'] as Record<string, { before: unknown; after: unknown; changedBy: string }>;
    assert.deepEqual(Object.keys(v), ['ConfigMap default/a-mirror .data.mode']);
    const entry = v['ConfigMap default/a-mirror .data.mode'];
    assert.equal(entry?.before, 'on');
    assert.equal(entry?.after, 'off');
    assert.equal(entry?.changedBy, 'this reconcile: update ConfigMap default/a-mirror (write 1)');
  });
});

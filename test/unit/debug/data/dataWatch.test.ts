import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { CacheDelta, CacheView, ReconcileRecord, WriteRecord } from '../../../../src/runtime/index.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { DataBreakpointSet } from '../../../../src/debug/data/dataBreakpoints.ts';
import { DataWatch } from '../../../../src/debug/data/dataWatch.ts';

// Which reconcile a watched change belongs to: the one whose write answered with its
// resourceVersion (whether the cache delta or the reconcile's end comes first), or the first one it
// triggered — and, while other reconciles run, not before they ended (one may be the writer).

const cm = (mode: string, rv: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'app', resourceVersion: rv }, data: { mode } });
const cacheWith = (obj: KubeObject | undefined): CacheView => ({ get: () => obj, list: () => [], kinds: () => [] });
const delta = (seq: number, obj: KubeObject): CacheDelta => ({ seq, type: 'MODIFIED', apiVersion: 'v1', kind: 'ConfigMap', key: 'default/app', resourceVersion: obj.metadata.resourceVersion ?? '', object: obj });
const write = (rv: string): WriteRecord => ({ verb: 'update', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'app', resourceVersion: rv, at: 1, durationMs: 1 });

function record(seq: number, partial: Partial<ReconcileRecord> = {}): ReconcileRecord {
  return {
    seq, reconcileId: `r${seq}`, controller: 'c', worker: 1, forKind: { apiVersion: 'v1', kind: 'ConfigMap' }, key: 'default/app',
    request: { namespace: 'default', name: 'app' }, trigger: [], cacheResourceVersion: '1', cacheSeq: 1, startedAt: 1, writes: [], logs: [], ...partial,
  };
}
const triggeredBy = (rv: string) => [{ type: 'MODIFIED' as const, kind: 'ConfigMap', apiVersion: 'v1', key: 'default/app', resourceVersion: rv, via: 'for' as const, at: 1 }];

function watching(): DataWatch {
  const set = new DataBreakpointSet();
  set.set('function', [{ text: 'ConfigMap default/app .data.mode' }]);
  const watch = new DataWatch(set);
  watch.synced();
  return watch;
}

describe('data watch: who changed a watched field', () => {
  it('a write whose reconcile ended first: the delta stops on that reconcile', () => {
    const watch = watching();
    const writer = record(1, { writes: [write('7')] });
    assert.equal(watch.reconcileEnded(writer, false), undefined);
    const stop = watch.delta(delta(2, cm('off', '7')), cacheWith(cm('on', '6')));
    assert.equal(stop?.record, writer);
    assert.equal(stop?.live, false);
    assert.deepEqual([stop?.changes[0]?.before, stop?.changes[0]?.after, stop?.changes[0]?.write?.index], ['on', 'off', 0]);
  });

  it('a delta before its writer\'s end waits for it', () => {
    const watch = watching();
    assert.equal(watch.delta(delta(2, cm('off', '7')), cacheWith(cm('on', '6'))), undefined);
    const writer = record(1, { writes: [write('7')] });
    assert.equal(watch.reconcileEnded(writer, false)?.record, writer);
    assert.deepEqual(watch.changesOf(writer).map((c) => c.after), ['off']);
  });

  it('a write held in its client call (still running) stops on its delta, whichever comes first, and its end stops nothing more', () => {
    const watch = watching();
    const running = record(1);
    assert.equal(watch.written(running, 0, write('7')), undefined, 'no delta yet');
    const stop = watch.delta(delta(2, cm('off', '7')), cacheWith(cm('on', '6')));
    assert.equal(stop?.record, running);
    assert.equal(stop?.changes[0]?.write?.record.resourceVersion, '7', 'the write from the held message');
    assert.equal(watch.reconcileEnded({ ...running, writes: [write('7')] }, false), undefined);

    const other = watching();
    other.delta(delta(2, cm('off', '8')), cacheWith(cm('on', '7')));
    assert.deepEqual(other.written(record(2), 0, write('8'))?.changes.map((c) => c.after), ['off']);
  });

  it('an outside change stops the reconcile it triggered, held at the gate', () => {
    const watch = watching();
    watch.delta(delta(2, cm('off', '7')), cacheWith(cm('on', '6')));
    assert.equal(watch.gate(record(3, { trigger: triggeredBy('6') }), false), undefined, 'triggered by an earlier event');
    const stop = watch.gate(record(4, { trigger: triggeredBy('7') }), false);
    assert.equal(stop?.record.seq, 4);
    assert.equal(stop?.live, true);
    assert.equal(stop?.changes[0]?.write, undefined);
  });

  it('while another reconcile runs, the triggered one goes ahead and the change waits: its writer claims it', () => {
    const watch = watching();
    watch.delta(delta(2, cm('off', '7')), cacheWith(cm('on', '6')));
    assert.equal(watch.gate(record(5, { trigger: triggeredBy('7') }), true), undefined);
    const writer = record(4, { writes: [write('7')] });
    assert.equal(watch.reconcileEnded(writer, true)?.record, writer, 'the running reconcile was the writer');
    assert.equal(watch.reconcileEnded(record(5), false), undefined);
  });

  it('while another reconcile runs and writes something else, the change is outside once none runs', () => {
    const watch = watching();
    watch.delta(delta(2, cm('off', '7')), cacheWith(cm('on', '6')));
    const triggered = record(5, { trigger: triggeredBy('7') });
    assert.equal(watch.gate(triggered, true), undefined);
    assert.equal(watch.reconcileEnded(record(4, { writes: [write('9')] }), true), undefined, 'the triggered one still runs');
    const stop = watch.reconcileEnded(triggered, false);
    assert.equal(stop?.record, triggered);
    assert.equal(stop?.live, false);
    assert.equal(stop?.changes[0]?.write, undefined);
  });

  it('the initial list is no change; an outside change that triggers nothing goes to the latest reconcile', () => {
    const set = new DataBreakpointSet();
    set.set('function', [{ text: 'ConfigMap default/app .data.mode' }]);
    const watch = new DataWatch(set);
    watch.delta(delta(1, cm('on', '5')), cacheWith(undefined));
    assert.equal(watch.hasPending, false, 'before sync');
    watch.synced();
    watch.delta(delta(2, cm('off', '7')), cacheWith(cm('on', '5')));
    const latest = record(9);
    const stop = watch.untriggered(latest);
    assert.equal(stop?.changes[0]?.untriggered, true);
    assert.equal(watch.hasPending, false);
  });

  it('a breakpoint set late finds earlier changes in the kept history: its writer\'s and a triggered one\'s', () => {
    const set = new DataBreakpointSet();
    const watch = new DataWatch(set);
    watch.synced(1);
    const writer = record(2, { writes: [write('7')] });
    watch.reconcileEnded(writer, false);
    const triggered = record(3, { trigger: triggeredBy('8'), cacheSeq: 3 });
    const history = [
      { seq: 1, kind: 'ConfigMap', key: 'default/app', resourceVersion: '5', type: 'ADDED' as const, object: cm('on', '5'), previous: undefined },
      { seq: 2, kind: 'ConfigMap', key: 'default/app', resourceVersion: '7', type: 'MODIFIED' as const, object: cm('off', '7'), previous: cm('on', '5') },
      { seq: 3, kind: 'ConfigMap', key: 'default/app', resourceVersion: '8', type: 'MODIFIED' as const, object: cm('slow', '8'), previous: cm('off', '7') },
    ];
    set.set('data', [{ text: 'ConfigMap default/app .data.mode' }]);
    watch.rebuild(history, [writer, triggered]);
    assert.deepEqual(watch.changesOf(writer).map((c) => [c.before, c.after, c.write?.index]), [['on', 'off', 0]], 'the initial list (seq 1) is no change');
    assert.deepEqual(watch.changesOf(triggered).map((c) => [c.before, c.after, c.write]), [['off', 'slow', undefined]]);
    set.set('data', []);
    watch.rebuild(history, [writer, triggered]);
    assert.deepEqual(watch.changesOf(writer), [], 'a removed breakpoint leaves nothing behind');
  });

  it('a delete (its answer has no resourceVersion) claims its object\'s DELETED event (the same uid, when known), whichever comes first: the field goes to unset', () => {
    const deleteOf: WriteRecord = { verb: 'delete', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'app', at: 1, durationMs: 1 };
    const deletedDelta = (seq: number, rv: string): CacheDelta => ({ ...delta(seq, cm('on', rv)), type: 'DELETED' });
    const watch = watching();
    const running = record(1);
    assert.equal(watch.written(running, 0, deleteOf), undefined, 'no event yet');
    const stop = watch.delta(deletedDelta(2, '7'), cacheWith(cm('on', '6')));
    assert.equal(stop?.record, running);
    assert.deepEqual([stop?.changes[0]?.before, stop?.changes[0]?.after, stop?.changes[0]?.write?.record.verb], ['on', undefined, 'delete']);
    assert.equal(watch.reconcileEnded({ ...running, writes: [deleteOf] }, false), undefined, 'its end stops nothing more');

    const eventFirst = watching();
    assert.equal(eventFirst.delta(deletedDelta(2, '7'), cacheWith(cm('on', '6'))), undefined);
    const ended = record(3, { writes: [deleteOf] });
    assert.equal(eventFirst.reconcileEnded(ended, false)?.record, ended);

    const outside = watching();
    outside.written(record(4), 0, deleteOf);
    outside.delta(delta(2, cm('on', '8')), cacheWith(undefined));
    assert.equal(outside.delta(deletedDelta(3, '9'), cacheWith(cm('on', '8'))), undefined, 'the object came back first: a later deletion is not that delete\'s');

    const withUid = (uid: string, rv: string): KubeObject => ({ ...cm('on', rv), metadata: { ...cm('on', rv).metadata, uid } });
    const other = watching();
    other.written(record(5), 0, { ...deleteOf, uid: 'a' });
    assert.equal(other.delta({ ...delta(2, withUid('b', '10')), type: 'DELETED' }, cacheWith(withUid('b', '9'))), undefined, 'another object of that name (another uid)');
    const same = watching();
    same.written(record(6), 0, { ...deleteOf, uid: 'a' });
    assert.equal(same.delta({ ...delta(2, withUid('a', '10')), type: 'DELETED' }, cacheWith(withUid('a', '9')))?.record.seq, 6, 'its own (the same uid)');
  });

  it('a delete of an object its finalizers hold claims the event that marks it deleted', () => {
    const set = new DataBreakpointSet();
    set.set('function', [{ text: 'ConfigMap default/app .metadata.deletionTimestamp' }]);
    const watch = new DataWatch(set);
    watch.synced();
    const deleteOf: WriteRecord = { verb: 'delete', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'app', at: 1, durationMs: 1 };
    const running = record(1);
    assert.equal(watch.written(running, 0, deleteOf), undefined);
    const held = cm('on', '6');
    const marked: KubeObject = { ...held, metadata: { ...held.metadata, resourceVersion: '7', finalizers: ['keep'], deletionTimestamp: '2026-01-01T00:00:00Z' } };
    const stop = watch.delta(delta(2, marked), cacheWith(held));
    assert.equal(stop?.record, running);
    assert.deepEqual([stop?.changes[0]?.after, stop?.changes[0]?.write?.record.verb], ['2026-01-01T00:00:00Z', 'delete']);
  });
});

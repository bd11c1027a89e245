import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CacheDelta, CacheView, EventFate, ReconcileRecord } from '../../../../src/runtime/index.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { FateLog, InformerRefusals, whyNot } from '../../../../src/runtime/index.ts';
import { DataBreakpointSet } from '../../../../src/debug/data/dataBreakpoints.ts';
import { DataWatch, describeChange } from '../../../../src/debug/data/dataWatch.ts';
import { dataChangeView } from '../../../../src/debug/data/dataChangeView.ts';
import { untriggeredReason } from '../../../../src/debug/data/untriggeredReason.ts';

// A data breakpoint on a field changed outside the controller, whose event a predicate filtered:
// the stop says why no reconcile came, and which `why` question answers in full.

const SHAPE = { name: 'syncer', forKind: { apiVersion: 'apps/v1', kind: 'Deployment' }, owns: [], watches: [{ apiVersion: 'v1', kind: 'Secret' }], workers: 1 };
const fate = (f: Partial<EventFate>): EventFate => ({ controller: 'syncer', type: 'MODIFIED', apiVersion: 'apps/v1', kind: 'Deployment', key: 'default/other', resourceVersion: '12', via: 'for', fate: 'filtered', at: 0, ...f });

function answerFor(fates: EventFate[], target = { kind: 'Deployment', key: 'default/other', resourceVersion: '12' }) {
  const log = new FateLog();
  for (const f of fates) log.add(f);
  return whyNot({ controllers: [SHAPE], fates: log, records: [], refusals: new InformerRefusals(), queueOf: () => undefined }, target);
}

test('the reason names the predicate that filtered the change, or the source that mapped it to nothing', () => {
  assert.equal(untriggeredReason(answerFor([fate({ predicate: 'managed' })])), 'filtered by predicate managed (For)');
  const secret = { kind: 'Secret', key: 'default/s', resourceVersion: '12' };
  assert.equal(untriggeredReason(answerFor([fate({ kind: 'Secret', key: 'default/s', via: 'watches', fate: 'unmapped' })], secret)), 'mapped to no request (Watches)');
  assert.equal(untriggeredReason(answerFor([], secret)), 'received? no, its informer has delivered no event about Secret default/s');
});

test('a stop for an outside change that triggered nothing says why, in its description and its scope', () => {
  const set = new DataBreakpointSet();
  set.set('function', [{ text: 'Deployment default/other .spec.replicas' }]);
  const watch = new DataWatch(set);
  watch.synced();
  const deployment = (replicas: number, rv: string): KubeObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { namespace: 'default', name: 'other', resourceVersion: rv }, spec: { replicas } });
  const cacheWith = (obj: KubeObject): CacheView => ({ get: () => obj, list: () => [], kinds: () => [] });
  const delta: CacheDelta = { seq: 2, type: 'MODIFIED', apiVersion: 'apps/v1', kind: 'Deployment', key: 'default/other', resourceVersion: '12', object: deployment(3, '12') };
  watch.delta(delta, cacheWith(deployment(1, '11')));
  const latest = { seq: 4, reconcileId: 'r4', controller: 'syncer', worker: 1, forKind: SHAPE.forKind, key: 'default/web', request: { namespace: 'default', name: 'web' }, trigger: [], cacheResourceVersion: '1', cacheSeq: 1, startedAt: 1, writes: [], logs: [] } as ReconcileRecord;
  const stop = watch.untriggered(latest, () => untriggeredReason(answerFor([fate({ predicate: 'predicate.NewPredicateFuncs(main.managed)' })])));
  const change = stop?.changes[0];
  assert.ok(change);
  assert.equal(describeChange(change), 'Deployment default/other .spec.replicas: 1 → 3 (rv 12), outside the controller; it triggered no reconcile: filtered by predicate predicate.NewPredicateFuncs(main.managed) (For); `why Deployment default/other@12` (this is the latest one)');
  const row = dataChangeView([change])['Deployment default/other .spec.replicas'] as { changedBy: string };
  assert.equal(row.changedBy, 'outside the controller (a scenario, kubectl or another client); it triggered no reconcile: filtered by predicate predicate.NewPredicateFuncs(main.managed) (For); `why Deployment default/other@12`: this is the latest one');
});

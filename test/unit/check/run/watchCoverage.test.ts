import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SimClusterApi, UserWatch } from '../../../../src/sim/index.ts';
import type { HandledView } from '../../../../src/controllerProtocol/index.ts';
import { HandlerView } from '../../../../src/controllerProtocol/index.ts';
import { WatchCoverage } from '../../../../src/check/run/watchCoverage.ts';

// A watch that sent everything is not a controller that took it in: caught up needs every event
// handler the controller reports to have been given what the watches' scopes hold.

const watch: UserWatch = { id: 1, resource: 'secrets', namespace: '', undelivered: 0, sent: 3 };
const cluster = (view: HandledView) => ({ watchesOf: () => [watch], watchedViewsOf: () => new Map([['secrets', view]]) }) as unknown as SimClusterApi;

test('caught up only once every handler of a watched resource has been given what its scope holds', () => {
  const handler = new HandlerView();
  handler.given('default/a', '5', false);
  const views = new Map([['secrets', [handler.view()]]]);
  const coverage = new WatchCoverage(cluster({ objects: 2, rvSum: 5 + 7 }), 'u', () => {}, () => views);
  try {
    assert.equal(coverage.caughtUp(), false);
    handler.given('default/b', '7', false);
    views.set('secrets', [handler.view()]);
    assert.equal(coverage.caughtUp(), true);
    // A second handler of the same informer that is behind holds it back.
    views.set('secrets', [handler.view(), { objects: 1, rvSum: 5 }]);
    assert.equal(coverage.caughtUp(), false);
  } finally {
    coverage.close();
  }
});

test('a host that reports no views, or views of resources none of its watches has, is taken at the watches’ word', () => {
  for (const handled of [() => undefined, () => new Map([['configmaps', [{ objects: 0, rvSum: 0 }]]])]) {
    const coverage = new WatchCoverage(cluster({ objects: 2, rvSum: 12 }), 'u', () => {}, handled);
    try {
      assert.equal(coverage.caughtUp(), true);
    } finally {
      coverage.close();
    }
  }
});

test('a handler view follows deletions and updates: what it was given, not deleted since', () => {
  const v = new HandlerView();
  v.given('a', '3', false);
  v.given('b', '4', false);
  v.given('a', '9', false);
  v.given('b', '10', true);
  assert.deepEqual(v.view(), { objects: 1, rvSum: 9 });
});

test('a process started again is waited for on what it watches, not on a kind only the killed one read', () => {
  // The killed process had read ConfigMaps (an informer its cache started on a reconcile's Get);
  // the new one, its work done, never reads them.
  let open: UserWatch[] = [watch, { id: 2, resource: 'configmaps', namespace: '', undelivered: 0, sent: 1 }];
  const sim = { watchesOf: () => open, watchedViewsOf: () => new Map() } as unknown as SimClusterApi;
  const coverage = new WatchCoverage(sim, 'u', () => {});
  try {
    assert.equal(coverage.caughtUp(), true);
    open = [];
    assert.equal(coverage.caughtUp(), false, 'killed: its watches are to open again');
    open = [{ ...watch, id: 3 }];
    coverage.processSynced();
    assert.equal(coverage.caughtUp(), true);
    open = [];
    assert.equal(coverage.caughtUp(), false, 'a relist of the new process: its own watch is to open again');
  } finally {
    coverage.close();
  }
});

test('not caught up, in words: the watch that never opened again, or the events it still had to send', () => {
  let open: UserWatch[] = [watch, { id: 2, resource: 'configmaps', namespace: 'default', undelivered: 0, sent: 1 }];
  const sim = { watchesOf: () => open, watchedViewsOf: () => new Map() } as unknown as SimClusterApi;
  const coverage = new WatchCoverage(sim, 'u', () => {});
  try {
    assert.equal(coverage.notCaughtUp(), undefined);
    open = [{ ...watch, undelivered: 2 }];
    assert.equal(coverage.notCaughtUp(), 'its watch of secrets (every namespace) still had 2 event(s) to send it');
    open = [watch];
    assert.equal(coverage.notCaughtUp(), 'its watch of configmaps in default never opened again');
  } finally {
    coverage.close();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/shared/apiError.ts';
import { CM, configMap, newCluster, tick } from './helpers.ts';

// Properties of the MVCC store over random write sequences: what an Exact list at any RV in the
// window shows is what the store held then; pages concatenate to the whole list; a watch from any
// RV, applied to the state at that RV, arrives at the current state.

type Op = { kind: 'put' | 'delete'; ns: 'default' | 'kube-system'; name: string; value: number; label: 'a' | 'b' };

const opArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom<'put' | 'delete'>('put', 'put', 'delete'),
  ns: fc.constantFrom<'default' | 'kube-system'>('default', 'kube-system'),
  name: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
  value: fc.integer({ min: 0, max: 3 }),
  label: fc.constantFrom<'a' | 'b'>('a', 'b'),
});

type State = Map<string, string>;

function apply(cluster: ReturnType<typeof newCluster>['cluster'], op: Op): void {
  const exists = (() => {
    try {
      cluster.get(CM, op.ns, op.name);
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) return false;
      throw e;
    }
  })();
  if (op.kind === 'delete') {
    if (exists) cluster.delete(CM, op.ns, op.name);
  } else if (exists) {
    cluster.update(CM, op.ns, op.name, configMap(op.name, { l: op.label }, { v: String(op.value) }));
  } else {
    cluster.create(CM, op.ns, configMap(op.name, { l: op.label }, { v: String(op.value) }));
  }
}

function snapshot(items: { object: { metadata: { namespace?: string; name?: string; resourceVersion?: string }; data?: unknown } }[]): State {
  return new Map(items.map((i) => [`${i.object.metadata.namespace}/${i.object.metadata.name}`, `${i.object.metadata.resourceVersion}:${JSON.stringify(i.object.data)}`]));
}

test('Exact lists at every RV in the window equal the state the store had then', () => {
  fc.assert(fc.property(fc.array(opArb, { maxLength: 40 }), fc.integer({ min: 5, max: 50 }), (ops, cacheSize) => {
    const { cluster } = newCluster({ watchCacheSize: cacheSize });
    const history = new Map<number, State>([[cluster.resourceVersion, snapshot(cluster.list(CM, {}).items)]]);
    for (const op of ops) {
      apply(cluster, op);
      history.set(cluster.resourceVersion, snapshot(cluster.list(CM, {}).items));
    }
    for (const [rv, state] of history) {
      if (rv === 0) continue;
      try {
        assert.deepEqual(snapshot(cluster.list(CM, { resourceVersion: String(rv), resourceVersionMatch: 'Exact' }).items), state);
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 410)) throw e;
        // Only RVs older than the window may be expired.
        assert.ok(cluster.resourceVersion - rv >= cacheSize, `RV ${rv} expired though within ${cacheSize} of ${cluster.resourceVersion}`);
      }
    }
  }), { numRuns: 150 });
});

test('pages of any size concatenate to the whole list at one RV, even with writes between pages', () => {
  fc.assert(fc.property(fc.array(opArb, { maxLength: 30 }), fc.array(opArb, { maxLength: 10 }), fc.integer({ min: 1, max: 6 }), fc.constantFrom('', 'l=a'), (ops, between, limit, labelSelector) => {
    const { cluster } = newCluster();
    for (const op of ops) apply(cluster, op);
    const whole = cluster.list(CM, { labelSelector });
    const pages: string[] = [];
    let page = cluster.list(CM, { limit, labelSelector });
    pages.push(...page.items.map((i) => i.json()));
    for (const op of between) apply(cluster, op);
    while (page.continue) {
      page = cluster.list(CM, { limit, labelSelector, continue: page.continue });
      assert.equal(page.resourceVersion, whole.resourceVersion);
      pages.push(...page.items.map((i) => i.json()));
    }
    assert.deepEqual(pages, whole.items.map((i) => i.json()));
  }), { numRuns: 150 });
});

test('a watch from any RV in the window, applied to the state at that RV, reaches the current state', async () => {
  await fc.assert(fc.asyncProperty(fc.array(opArb, { maxLength: 30 }), fc.nat(), fc.constantFrom('', 'l=a'), async (ops, pick, labelSelector) => {
    const { cluster } = newCluster();
    const rvs = [cluster.resourceVersion];
    for (const op of ops) {
      apply(cluster, op);
      rvs.push(cluster.resourceVersion);
    }
    const from = rvs[pick % rvs.length] ?? 0;
    const state = snapshot(cluster.list(CM, { resourceVersion: String(from), resourceVersionMatch: 'Exact', labelSelector }).items);
    let lastRv = from;
    cluster.watch(CM, { resourceVersion: String(from), labelSelector }, {
      event: (e) => {
        const rv = Number(e.object.metadata.resourceVersion);
        assert.ok(rv > lastRv, 'RVs rise');
        lastRv = rv;
        const key = `${e.object.metadata.namespace}/${e.object.metadata.name}`;
        if (e.type === 'DELETED') {
          assert.ok(state.has(key), `DELETED ${key} was known`);
          state.delete(key);
        } else {
          assert.equal(state.has(key), e.type === 'MODIFIED', `${e.type} ${key}`);
          state.set(key, `${e.object.metadata.resourceVersion}:${JSON.stringify(e.object.data)}`);
        }
      },
      close: () => assert.fail('closed'),
    });
    await tick();
    const now = snapshot(cluster.list(CM, { labelSelector }).items);
    // Objects that left the selector arrive as DELETED with the RV of the change; compare by data.
    const strip = (s: State): string[] => [...s].map(([k, v]) => `${k}=${v.slice(v.indexOf(':'))}`).sort();
    assert.deepEqual(strip(state), strip(now));
  }), { numRuns: 100 });
});

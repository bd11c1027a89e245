import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createsByObject, madeByOneStart } from '../../../src/check/findings/oneStart.ts';
import type { ObjectDiff } from '../../../src/check/oracle/index.ts';
import type { CommittedWrite } from '../../../src/check/run/controllerWrites.ts';
import type { RunResult } from '../../../src/check/run/checkRun.ts';

// A second Deployment made by the same start of the controller as the first is its cache's doing,
// not the crash's; one made after the restart, by the new start, is what the crash left behind.

const deployment = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default', generateName: 'web-' } });

function create(name: string, rv: string): CommittedWrite {
  return { verb: 'create', kind: 'apps/Deployment', group: 'apps', resource: 'deployments', namespace: 'default', name, pointName: 'web-*', resourceVersion: rv, object: deployment(name), byController: true, atMs: 0 };
}

function run(creates: [name: string, rv: string, incarnation: number][]): RunResult {
  const writes = creates.map(([name, rv]) => create(name, rv));
  const reconciles = creates.map(([name, rv, incarnation], seq) => ({ incarnation, record: { seq, writes: [{ verb: 'create', kind: 'Deployment', namespace: 'default', name, resourceVersion: rv }] } }));
  return { writes, reconciles } as unknown as RunResult;
}

const extra: ObjectDiff[] = [{ id: 'apps/Deployment default/web-* of cache.example.com/Memcached default/web #2', change: 'extra', got: deployment('web-b') } as ObjectDiff];
const reference = createsByObject([create('web-a', '10')]);

test('the reference run created one Deployment alike', () => {
  assert.deepEqual([...reference], [['apps/Deployment default/web-*', 1]]);
});

test('two Deployments made by one start: the cache, not the crash', () => {
  assert.equal(madeByOneStart(run([['web-a', '10', 2], ['web-b', '11', 2]]), extra, reference), true);
});

test('one Deployment before the crash and one after it: the crash', () => {
  assert.equal(madeByOneStart(run([['web-a', '10', 1], ['web-b', '11', 2]]), extra, reference), false);
});

test('one Deployment before the crash and two after it (two unexpected): the crash is needed too', () => {
  const two = [...extra, { id: 'apps/Deployment default/web-* of cache.example.com/Memcached default/web #3', change: 'extra', got: deployment('web-c') } as ObjectDiff];
  assert.equal(madeByOneStart(run([['web-a', '10', 1], ['web-b', '11', 2], ['web-c', '12', 2]]), two, reference), false);
});

test('nothing unexpected the controller made: nothing to say', () => {
  assert.equal(madeByOneStart(run([['web-a', '10', 1]]), [], reference), false);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realClock } from '../../../../src/shared/clock.ts';
import { defineController, predicate } from '../../../../src/controllerProtocol/api.ts';
import { ControllerLoop } from '../../../../src/host/engine/controllerLoop.ts';
import type { EventFate } from '../../../../src/controllerProtocol/records.ts';
import type { LogLine } from '../../../../src/controllerProtocol/records.ts';
import { FakeInformer, FakeQueue, FakeWriter } from './fakes.ts';

// Every informer event leaves one fate per source of the TypeScript controller it reaches (and one
// per request it maps to): what "why not?" answers from.

const RS = { apiVersion: 'apps/v1', kind: 'ReplicaSet' };
const POD = { apiVersion: 'v1', kind: 'Pod' };

const rs = (rv: string, replicas: number) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: rv }, spec: { replicas } });
const pod = (name: string, rv: string, owned: boolean) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', resourceVersion: rv, ...(owned ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u1', controller: true }] } : {}) },
});

const onlyScaled = predicate('OnlyScaled', (e) => e.type !== 'MODIFIED' || (e.old?.['spec'] as { replicas?: number })?.replicas !== (e.object['spec'] as { replicas?: number }).replicas);

test('fates: filtered by the named predicate, mapped to nothing, enqueued while processing, then merged', async () => {
  const rsInformer = new FakeInformer(RS);
  const pods = new FakeInformer(POD);
  const fates: EventFate[] = [];
  const logs: LogLine[] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  let started: () => void = () => {};
  const reconciling = new Promise<void>((r) => (started = r));
  const loop = new ControllerLoop({
    definition: defineController({
      name: 'rs',
      for: { ...RS, predicates: [onlyScaled] },
      owns: [{ ...POD, predicates: [function throwsOnBoom(e) { if (e.object.metadata.name === 'boom') throw new Error('no boom'); return true; }] }],
      reconcile: async () => {
        started();
        await held;
      },
    }),
    informers: [rsInformer, pods],
    queue: new FakeQueue(),
    writer: new FakeWriter(),
    clock: realClock,
    workers: 1,
    reconcileTimeoutMs: 5000,
    mirrorCache: false,
    send: (m) => {
      if (m.type === 'fate') fates.push(m.fate);
      if (m.type === 'log') logs.push(m.line);
    },
  });
  await loop.start();
  rsInformer.emit('ADDED', rs('1', 2));
  await reconciling;
  rsInformer.emit('MODIFIED', rs('2', 2));
  pods.emit('ADDED', pod('stray', '3', false));
  pods.emit('ADDED', pod('web-a', '4', true));
  pods.emit('ADDED', pod('web-b', '5', true));
  pods.emit('ADDED', pod('boom', '6', true));
  release();
  await loop.stop();

  const seen = fates.map((f) => [f.kind, f.resourceVersion, f.via, f.fate, f.request ?? f.predicate ?? '', f.keyState ?? '']);
  assert.deepEqual(seen, [
    ['ReplicaSet', '1', 'for', 'enqueued', 'default/web', ''],
    ['ReplicaSet', '2', 'for', 'filtered', 'OnlyScaled', ''],
    ['Pod', '3', 'owns', 'unmapped', '', ''],
    ['Pod', '4', 'owns', 'enqueued', 'default/web', 'processing'],
    ['Pod', '5', 'owns', 'merged', 'default/web', 'processing'],
    ['Pod', '6', 'owns', 'filtered', 'throwsOnBoom', ''],
  ]);
  assert.equal(fates[1]?.type, 'MODIFIED');
  assert.equal(fates[0]?.controller, 'rs');
  // A predicate that throws filters the event out, and says why in the log.
  assert.ok(logs.some((l) => l.level === 'error' && l.message === 'predicate throwsOnBoom for Pod threw: no boom'), JSON.stringify(logs));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realClock } from '../../../../src/shared/clock.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { defineController } from '../../../../src/controllerProtocol/api.ts';
import { ControllerLoop } from '../../../../src/host/engine/controllerLoop.ts';
import type { ReconcileEnd } from '../../../../src/controllerProtocol/protocol.ts';
import { FakeInformer, FakeQueue, FakeWriter } from './fakes.ts';

// A reconcile that reads from its cache an object older than one its own process already wrote
// (the informer has not delivered the write yet) read stale state: the reconcile says so. Once the
// informer delivers the written version, a read of it is fresh.

const CM = { apiVersion: 'v1', kind: 'ConfigMap' };
const cm = (name: string, rv: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', resourceVersion: rv }, data });

test('a read of an object older than this controller\'s own write is a stale read; after the informer delivers it, not', async () => {
  const configMaps = new FakeInformer(CM);
  const queue = new FakeQueue();
  const ends: ReconcileEnd[] = [];
  let wake: () => void = () => {};
  const loop = new ControllerLoop({
    definition: defineController({
      name: 'stamper',
      for: CM,
      async reconcile(req, ctx) {
        const current = ctx.get<KubeObject & { data?: Record<string, string> }>('ConfigMap', req.namespace, req.name);
        if (!current || current.data?.stamped) return;
        await ctx.client.update({ ...current, data: { ...current.data, stamped: 'yes' } });
      },
    }),
    informers: [configMaps],
    queue,
    writer: new FakeWriter(),
    clock: realClock,
    workers: 1,
    reconcileTimeoutMs: 1000,
    mirrorCache: false,
    send: (m) => {
      if (m.type !== 'reconcileEnd') return;
      ends.push(m.end);
      wake();
    },
  });
  const ended = (n: number) => new Promise<void>((resolve) => {
    wake = () => ends.length >= n && resolve();
    wake();
  });
  configMaps.objects.set('default/web', cm('web', '10'));
  await loop.start();
  queue.add('default/web');
  await ended(1);
  assert.equal(ends[0]?.writes[0]?.resourceVersion, '101');
  assert.deepEqual([ends[0]?.writes[0]?.previousResourceVersion, ends[0]?.writes[0]?.changed], ['10', true]);
  assert.equal(ends[0]?.staleReads, undefined, 'the first read came before any write');

  // Reconciled again before the informer delivered rv 101: it reads rv 10 and writes again.
  queue.add('default/web');
  await ended(2);
  assert.deepEqual(ends[1]?.staleReads, [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'web', verb: 'update', wroteBy: 1, readResourceVersion: '10', wroteResourceVersion: '101' }]);

  // The informer catches up (with the second write's version): reads are fresh again.
  configMaps.emit('MODIFIED', cm('web', '102', { stamped: 'yes' }));
  await ended(3);
  assert.equal(ends[2]?.staleReads, undefined);
  await loop.stop();
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { realClock } from '../../../../src/shared/clock.ts';
import { defineController, TerminalError } from '../../../../src/controllerProtocol/api.ts';
import { ControllerLoop } from '../../../../src/host/engine/controllerLoop.ts';
import type { HostMessage } from '../../../../src/controllerProtocol/protocol.ts';
import type { ReconcileRecord } from '../../../../src/controllerProtocol/records.ts';
import type { ReconcileEnd } from '../../../../src/controllerProtocol/protocol.ts';
import { FakeInformer, FakeQueue, FakeWriter } from './fakes.ts';

const RS = { apiVersion: 'apps/v1', kind: 'ReplicaSet' };
const POD = { apiVersion: 'v1', kind: 'Pod' };

function setup(reconcile: Parameters<typeof defineController>[0]['reconcile'], timeoutMs = 1000) {
  const rs = new FakeInformer(RS);
  const pods = new FakeInformer(POD);
  const queue = new FakeQueue();
  const writer = new FakeWriter();
  const messages: HostMessage[] = [];
  const ends: ReconcileEnd[] = [];
  const starts: ReconcileRecord[] = [];
  let onEnd: () => void = () => {};
  const loop = new ControllerLoop({
    definition: defineController({ name: 'rs', for: RS, owns: [POD], reconcile }),
    informers: [rs, pods],
    queue,
    writer,
    clock: realClock,
    workers: 1,
    reconcileTimeoutMs: timeoutMs,
    mirrorCache: true,
    send: (m) => {
      messages.push(m);
      if (m.type === 'reconcileStart') starts.push(m.record);
      if (m.type === 'reconcileEnd') {
        ends.push(m.end);
        onEnd();
      }
    },
  });
  const waitEnds = (n: number) => new Promise<void>((resolve) => {
    const check = () => ends.length >= n && resolve();
    onEnd = check;
    check();
  });
  return { rs, pods, queue, writer, loop, messages, ends, starts, waitEnds };
}

const rsObj = (rv: string) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: rv }, spec: { replicas: 2 } });
const podOf = (name: string, rv: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', resourceVersion: rv, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u1', controller: true }] },
});

test('an owned object enqueues its controlling owner, with the trigger and cache RV recorded', async () => {
  const t = setup(async (req, ctx) => {
    await ctx.client.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `${req.name}-a`, namespace: req.namespace } });
  });
  await t.loop.start();
  t.rs.emit('ADDED', rsObj('10'));
  await t.waitEnds(1);
  t.pods.emit('DELETED', podOf('web-a', '12'));
  await t.waitEnds(2);
  await t.loop.stop();
  const second = t.starts[1];
  assert.equal(second?.key, 'default/web');
  assert.deepEqual(second?.trigger.map((d) => [d.type, d.kind, d.key, d.resourceVersion, d.via]), [['DELETED', 'Pod', 'default/web-a', '12', 'owns']]);
  assert.equal(second?.cacheResourceVersion, '12');
  assert.equal(t.ends[0]?.writes[0]?.verb, 'create');
  assert.equal(t.ends[0]?.writes[0]?.resourceVersion, '101');
  assert.ok(t.messages.some((m) => m.type === 'delta' && m.delta.object?.metadata.name === 'web'));
});

test('a throwing reconcile is rate limited; a terminal error is forgotten', async () => {
  let calls = 0;
  const t = setup(() => {
    calls++;
    if (calls === 1) throw new Error('boom');
    throw new TerminalError('never works');
  });
  await t.loop.start();
  t.rs.emit('ADDED', rsObj('10'));
  await t.waitEnds(1);
  t.rs.emit('MODIFIED', rsObj('11'));
  await t.waitEnds(2);
  await t.loop.stop();
  assert.deepEqual(t.queue.calls, ['addRateLimited default/web', 'forget default/web']);
  assert.equal(t.ends[0]?.outcome.kind === 'error' && t.ends[0].outcome.error.message, 'boom');
});

test('a reconcile that hangs past the timeout is reported and requeued with backoff', async () => {
  const t = setup(() => new Promise(() => {}), 50);
  await t.loop.start();
  t.rs.emit('ADDED', rsObj('10'));
  await t.waitEnds(1);
  await t.loop.stop();
  const o = t.ends[0]?.outcome;
  assert.equal(o?.kind === 'error' && o.error.timedOut, true);
  assert.deepEqual(t.queue.calls, ['addRateLimited default/web']);
});

test('the cache reader returns copies and rejects kinds the controller does not watch', async () => {
  let seen: unknown;
  const t = setup((req, ctx) => {
    const rs = ctx.get<KubeObject>('ReplicaSet', req.namespace, req.name);
    if (rs) (rs.spec as { replicas: number }).replicas = 99;
    try {
      ctx.list('Service');
    } catch (err) {
      seen = (err as Error).message;
    }
  });
  await t.loop.start();
  t.rs.emit('ADDED', rsObj('10'));
  await t.waitEnds(1);
  await t.loop.stop();
  assert.equal((t.rs.get('default/web')?.spec as { replicas: number }).replicas, 2);
  assert.match(String(seen), /no Service/);
});

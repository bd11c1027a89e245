import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeFinding } from '../../../src/check/findings/finding.ts';
import { endStateFinding, referenceCourse } from '../../../src/check/findings/judge.ts';
import { Oracle } from '../../../src/check/oracle/index.ts';
import type { CommittedWrite } from '../../../src/check/run/controllerWrites.ts';
import type { RunResult, TracedReconcile } from '../../../src/check/run/checkRun.ts';
import type { KubeObject } from '../../../src/shared/k8s.ts';

// A copier killed between its copies never makes the last one. The finding's reconciles are the
// ones of the request that made that copy in the reference run — not whatever ran first after the
// restart (the cluster's own ConfigMaps).

const configMap = (namespace: string, name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name }, data: { mode: 'on' } });

function reconcile(seq: number, key: string, incarnation: number, made: [namespace: string, name: string, rv: string][] = []): TracedReconcile {
  return {
    incarnation,
    record: {
      seq,
      controller: 'copier',
      key,
      forKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      trigger: [{ type: 'ADDED', kind: 'ConfigMap', key, resourceVersion: '1' }],
      cacheResourceVersion: '9',
      writes: made.map(([namespace, name, resourceVersion]) => ({ verb: 'create', kind: 'ConfigMap', namespace, name, resourceVersion })),
    },
  } as unknown as TracedReconcile;
}

function create(namespace: string, name: string, rv: string): CommittedWrite {
  return { verb: 'create', kind: 'ConfigMap', group: '', resource: 'configmaps', namespace, name, resourceVersion: rv, object: configMap(namespace, name), byController: true, atMs: 0 } as CommittedWrite;
}

const source = configMap('default', 'settings');
const everyCopy = [source, configMap('team-b', 'settings'), configMap('team-c', 'settings')];
const referenceRun = {
  endState: everyCopy,
  writes: [create('team-b', 'settings', '20'), create('team-c', 'settings', '21')],
  reconciles: [reconcile(1, 'default/settings', 1, [['team-b', 'settings', '20'], ['team-c', 'settings', '21']])],
} as unknown as RunResult;

test('a copy the perturbed run never made: the reconciles of the request that made it in the reference run', () => {
  const oracle = Oracle.learn([everyCopy, everyCopy]);
  const crashed = {
    endState: [source, configMap('team-b', 'settings')],
    writes: [create('team-b', 'settings', '30')],
    reconciles: [reconcile(1, 'default/settings', 1, [['team-b', 'settings', '30']]), reconcile(2, 'default/kube-root-ca.crt', 2), reconcile(3, 'default/settings', 2), reconcile(4, 'kube-system/kube-root-ca.crt', 2)],
  } as unknown as RunResult;
  const plan = { kind: 'crash-after-write', write: { verb: 'create', kind: 'ConfigMap', namespace: 'team-b', name: 'settings', occurrence: 1 } } as const;
  const finding = endStateFinding(plan, crashed, oracle, 'replay', referenceCourse(referenceRun, referenceRun.writes));
  assert.ok(finding);
  assert.deepEqual(
    finding.reconciles.map((r) => [r.seq, r.key]),
    [
      [1, 'default/settings'],
      [3, 'default/settings'],
    ],
  );
});

test('an object someone deleted and made again under its name: not the reconcile that wrote the old one, but the latest of the request that writes it', () => {
  // The binder labelled Secret default/db; the Secret was deleted and made again, and the run never labelled the new one.
  const secret = (uid: string, labels?: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: 'default', name: 'db', uid, ...(labels ? { labels } : {}) } });
  const label = (uid: string, rv: string): CommittedWrite => ({ verb: 'update', kind: 'Secret', group: '', resource: 'secrets', namespace: 'default', name: 'db', resourceVersion: rv, object: secret(uid, { 'bound-to': 'app' }), byController: true, atMs: 0 }) as CommittedWrite;
  const labelled = (seq: number, rv: string): TracedReconcile => {
    const r = reconcile(seq, 'default/app', 1);
    r.record.writes.push({ verb: 'update', kind: 'Secret', namespace: 'default', name: 'db', resourceVersion: rv } as (typeof r.record.writes)[number]);
    return r;
  };
  const bound = [source, secret('new', { 'bound-to': 'app' })];
  const reference = { endState: bound, writes: [label('old', '10'), label('new', '14')], reconciles: [labelled(1, '10'), labelled(4, '14')] } as unknown as RunResult;
  const oracle = Oracle.learn([bound, bound]);
  const missed = { endState: [source, secret('new')], writes: [label('old', '10')], reconciles: [labelled(1, '10'), reconcile(2, 'default/app', 1), reconcile(3, 'default/app', 1)] } as unknown as RunResult;
  const plan = { kind: 'coalesce-change', change: { kind: 'Secret', namespace: 'default', name: 'db', occurrence: 2 } } as const;
  const finding = endStateFinding(plan, missed, oracle, 'replay', referenceCourse(reference, reference.writes));
  assert.ok(finding);
  assert.deepEqual(finding.reconciles.map((r) => r.seq), [2, 3]);
});

test('an object the run last wrote before a restart that then skipped changing it: that write, and the reconciles of its request after the restart', () => {
  // The resizer made its volume at 10Gi, was killed while resizing, and its restart left the volume at 10Gi.
  const volume = (size: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'vol' }, data: { size } });
  const write = (verb: 'create' | 'update', size: string, rv: string): CommittedWrite => ({ verb, kind: 'ConfigMap', group: '', resource: 'configmaps', namespace: 'default', name: 'vol', resourceVersion: rv, object: volume(size), byController: true, atMs: 0 }) as CommittedWrite;
  const wrote = (seq: number, incarnation: number, verb: 'create' | 'update', rv: string): TracedReconcile => {
    const r = reconcile(seq, 'default/rabbit', incarnation);
    r.record.writes.push({ verb, kind: 'ConfigMap', namespace: 'default', name: 'vol', resourceVersion: rv } as (typeof r.record.writes)[number]);
    return r;
  };
  const reference = { endState: [volume('15Gi')], writes: [write('create', '10Gi', '10'), write('update', '15Gi', '20')], reconciles: [wrote(1, 1, 'create', '10'), wrote(4, 1, 'update', '20')] } as unknown as RunResult;
  const oracle = Oracle.learn([[volume('15Gi')], [volume('15Gi')]]);
  const cutShort = { endState: [volume('10Gi')], writes: [write('create', '10Gi', '10')], reconciles: [wrote(1, 1, 'create', '10'), reconcile(1, 'default/rabbit', 2), reconcile(2, 'default/rabbit', 2)] } as unknown as RunResult;
  const plan = { kind: 'crash-after-write', write: { verb: 'delete', kind: 'ConfigMap', namespace: 'default', name: 'set', occurrence: 1 } } as const;
  const finding = endStateFinding(plan, cutShort, oracle, 'replay', referenceCourse(reference, reference.writes));
  assert.ok(finding);
  assert.deepEqual(finding.reconciles.map((r) => [r.incarnation, r.seq]), [[1, 1], [2, 1], [2, 2]]);
});

test('an object the perturbed run deleted: the reconcile whose delete of it succeeded, though a delete is answered without a resourceVersion', () => {
  const data = configMap('default', 'zk-data');
  const parent = configMap('default', 'zk');
  const oracle = Oracle.learn([[parent, data], [parent, data]]);
  const deleteData = { ...create('default', 'zk-data', '40'), verb: 'delete' } as CommittedWrite;
  const deletes = (seq: number, error?: { code: number; reason: string; message: string }): TracedReconcile => {
    const r = reconcile(seq, 'default/zk', 2);
    r.record.writes.push({ verb: 'delete', kind: 'ConfigMap', namespace: 'default', name: 'zk-data', ...(error ? { error } : {}) } as TracedReconcile['record']['writes'][number]);
    return r;
  };
  const travelled = {
    endState: [parent],
    writes: [create('default', 'zk-data', '30'), deleteData],
    reconciles: [reconcile(1, 'default/zk', 1, [['default', 'zk-data', '30']]), reconcile(2, 'default/zk', 2), deletes(3), deletes(4, { code: 404, reason: 'NotFound', message: 'not found' }), reconcile(5, 'default/zk', 2)],
  } as unknown as RunResult;
  const reference = { endState: [parent, data], writes: [create('default', 'zk-data', '20')], reconciles: [reconcile(1, 'default/zk', 1, [['default', 'zk-data', '20']])] } as unknown as RunResult;
  const plan = { kind: 'stale-restart-after-write', write: { verb: 'update', kind: 'ConfigMap', namespace: 'default', name: 'zk', occurrence: 2 }, lagMs: 1500 } as const;
  const finding = endStateFinding(plan, travelled, oracle, 'replay', referenceCourse(reference, reference.writes));
  assert.ok(finding);
  assert.ok(finding.reconciles.some((r) => r.seq === 3 && r.writes.includes('delete ConfigMap default/zk-data → rv -')), JSON.stringify(finding.reconciles));
});

test('a reconcile the kill cut short is shown, marked killed: the rollover killed after pointing at its new child, before deleting the old one', () => {
  // Reconcile 2 made web-v2 and pointed the parent at it; killed there, it never deleted web-v1,
  // and the restart found nothing to do. Without it, the finding showed only the reconcile that
  // made web-v1 and those after the restart.
  const parent = configMap('default', 'web');
  const v1 = configMap('default', 'web-v1');
  const v2 = configMap('default', 'web-v2');
  const oracle = Oracle.learn([[parent, v2], [parent, v2]]);
  const killed = { ...reconcile(2, 'default/web', 1, [['default', 'web-v2', '12']]), killed: true as const };
  const rolledHalfway = {
    endState: [parent, v1, v2],
    writes: [create('default', 'web-v1', '10'), create('default', 'web-v2', '12')],
    reconciles: [reconcile(1, 'default/web', 1, [['default', 'web-v1', '10']]), killed, reconcile(1, 'default/web', 2)],
  } as unknown as RunResult;
  const reference = { endState: [parent, v2], writes: [create('default', 'web-v1', '5')], reconciles: [reconcile(1, 'default/web', 1, [['default', 'web-v1', '5']])] } as unknown as RunResult;
  const plan = { kind: 'crash-after-write', write: { verb: 'update', kind: 'ConfigMap', namespace: 'default', name: 'web', occurrence: 2 } } as const;
  const finding = endStateFinding(plan, rolledHalfway, oracle, 'replay', referenceCourse(reference, reference.writes));
  assert.ok(finding);
  assert.deepEqual(finding.reconciles.map((r) => [r.incarnation, r.seq, r.killed ?? false]), [[1, 1, false], [1, 2, true], [2, 1, false]]);
  assert.match(describeFinding(finding, 1), /#2 copier default\/web: .*\n {6}create ConfigMap default\/web-v2 → rv 12\n {6}killed here, before it finished\n/);
});

test('a lost update: the reconcile that wrote the object on a stale read of it, not only the last one that wrote it', () => {
  // Two ledgers add their accounts to one list; the second read the list before the first's write
  // reached its cache and wrote it without that account. A third write later carries the loss on.
  const accounts = (list: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'accounts' }, data: { accounts: list } });
  const patch = (list: string, rv: string): CommittedWrite => ({ verb: 'patch', kind: 'ConfigMap', group: '', resource: 'configmaps', namespace: 'default', name: 'accounts', resourceVersion: rv, object: accounts(list), byController: true, atMs: 0 }) as unknown as CommittedWrite;
  const registering = (seq: number, key: string, rv: string, staleAt?: string): TracedReconcile => {
    const r = reconcile(seq, key, 1);
    r.record.writes.push({ verb: 'patch', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'accounts', resourceVersion: rv } as (typeof r.record.writes)[number]);
    if (staleAt) r.record.staleReads = [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'accounts', readResourceVersion: staleAt, wroteResourceVersion: '10', wroteBy: 1, verb: 'patch' }];
    return r;
  };
  const all = [accounts('a,b,c')];
  const reference = { endState: all, writes: [patch('a', '10'), patch('a,b', '12'), patch('a,b,c', '14')], reconciles: [registering(1, 'default/a', '10'), registering(2, 'default/b', '12'), registering(3, 'default/c', '14')] } as unknown as RunResult;
  const lost = { endState: [accounts('b,c')], writes: [patch('a', '10'), patch('b', '12'), patch('b,c', '14')], reconciles: [registering(1, 'default/a', '10'), registering(2, 'default/b', '12', '9'), reconcile(3, 'default/a', 1), registering(4, 'default/c', '14')] } as unknown as RunResult;
  const plan = { kind: 'stale-after-write', write: { verb: 'update', kind: 'ConfigMap', namespace: 'default', name: 'accounts', occurrence: 1, request: 'patch' }, lagMs: 1500 } as const;
  const finding = endStateFinding(plan, lost, Oracle.learn([all, all]), 'replay', referenceCourse(reference, reference.writes));
  assert.ok(finding);
  assert.ok(finding.reconciles.some((r) => r.seq === 2), `the stale reconcile is named: ${finding.reconciles.map((r) => r.seq).join(', ')}`);
  assert.match(describeFinding(finding, 1), /#2 copier default\/b: .*\n {6}warning: stale read: ConfigMap default\/accounts at rv 9, older than rv 10 this controller wrote \(patch in #1\)\n {6}patch ConfigMap default\/accounts → rv 12/);
});

test('a lost update behind a lagging cache: the first write of the object after the one the cache did not show', () => {
  // As above, with no stale read reported (the list's kind read through the cache only, no handler
  // of the controller's watching it): the write the plan held back names where the loss began.
  const accounts = (list: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'accounts' }, data: { accounts: list } });
  const point = { verb: 'update', kind: 'ConfigMap', namespace: 'default', name: 'accounts', occurrence: 1, request: 'patch' } as const;
  const patch = (list: string, rv: string, first = false): CommittedWrite => ({ verb: 'patch', kind: 'ConfigMap', group: '', resource: 'configmaps', namespace: 'default', name: 'accounts', resourceVersion: rv, object: accounts(list), byController: true, atMs: 0, ...(first ? { point } : {}) }) as unknown as CommittedWrite;
  const registering = (seq: number, key: string, rv: string): TracedReconcile => {
    const r = reconcile(seq, key, 1);
    r.record.writes.push({ verb: 'patch', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'accounts', resourceVersion: rv } as (typeof r.record.writes)[number]);
    return r;
  };
  const all = [accounts('a,b,c')];
  const reference = { endState: all, writes: [patch('a', '10'), patch('a,b', '12'), patch('a,b,c', '14')], reconciles: [registering(1, 'default/a', '10'), registering(2, 'default/b', '12'), registering(3, 'default/c', '14')] } as unknown as RunResult;
  const lost = { endState: [accounts('b,c')], writes: [patch('a', '10', true), patch('b', '12'), patch('b,c', '14')], reconciles: [registering(1, 'default/a', '10'), registering(2, 'default/b', '12'), reconcile(3, 'default/a', 1), registering(4, 'default/c', '14')] } as unknown as RunResult;
  const finding = endStateFinding({ kind: 'stale-after-write', write: point, lagMs: 1500 }, lost, Oracle.learn([all, all]), 'replay', referenceCourse(reference, reference.writes));
  assert.ok(finding);
  assert.deepEqual(finding.reconciles.map((r) => r.seq), [2, 4]);
});

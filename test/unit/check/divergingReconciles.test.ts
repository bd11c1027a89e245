import { test } from 'node:test';
import assert from 'node:assert/strict';
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

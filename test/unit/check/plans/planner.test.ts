import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { planRuns } from '../../../../src/check/plans/planner.ts';
import type { CommittedWrite } from '../../../../src/check/run/controllerWrites.ts';

// Plans come from the reference run: a crash and a stale cache after each of the controller's
// writes; a coalesced change and a relist where an object the controller watches changed again.

function change(resource: string, group: string, kind: string, name: string, occurrence: number, byController = false): CommittedWrite {
  const object = { apiVersion: group ? `${group}/v1` : 'v1', kind, metadata: { name, namespace: 'default' } } as KubeObject;
  const w: CommittedWrite = { verb: 'update', kind: group ? `${group}/${kind}` : kind, group, resource, namespace: 'default', name, pointName: name, resourceVersion: String(occurrence), object, byController, change: { kind: group ? `${group}/${kind}` : kind, namespace: 'default', name, occurrence }, atMs: occurrence };
  if (byController) w.point = { verb: 'update', kind: w.kind, namespace: 'default', name, occurrence };
  return w;
}

test('a change followed by another of the same object is a coalesce and a relist plan, only where the controller watches it', () => {
  const writes = [change('deployments', 'apps', 'Deployment', 'web', 1), change('deployments', 'apps', 'Deployment', 'web', 2), change('pods', '', 'Pod', 'web-1', 1), change('pods', '', 'Pod', 'web-1', 2)];
  const plans = planRuns({ writes, watched: new Set(['deployments.apps']) });
  assert.deepEqual(plans.map((p) => `${p.kind} ${'change' in p ? `${p.change.kind} ${p.change.name} #${p.change.occurrence}` : ''}`), [
    'coalesce-change apps/Deployment web #1',
    'relist-across-changes apps/Deployment web #1',
  ]);
});

test('each write of the controller is a crash, a stale cache and a stale restart', () => {
  const plans = planRuns({ writes: [change('configmaps', '', 'ConfigMap', 'a', 1, true)], watched: new Set() });
  assert.deepEqual(plans.map((p) => p.kind), ['crash-after-write', 'stale-after-write', 'stale-restart-after-write']);
});

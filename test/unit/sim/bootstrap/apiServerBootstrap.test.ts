// What kube-apiserver writes before it serves, in a new simulated cluster: the bootstrap RBAC
// policy (v1.28's exactly) and the system PriorityClasses; reconciled, not duplicated, when a
// restart finds them in the state dir; left out for a cluster made empty on purpose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { createSimCluster, type SimCluster } from '../../../../src/sim/simCluster.ts';

const RBAC = 'rbac.authorization.k8s.io';
const CLUSTER_ROLES = { group: RBAC, version: 'v1', resource: 'clusterroles' };
const CLUSTER_ROLE_BINDINGS = { group: RBAC, version: 'v1', resource: 'clusterrolebindings' };
const ROLES = { group: RBAC, version: 'v1', resource: 'roles' };
const ROLE_BINDINGS = { group: RBAC, version: 'v1', resource: 'rolebindings' };
const PRIORITY_CLASSES = { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses' };

type Rules = { rules?: { apiGroups?: string[]; resources?: string[]; verbs?: string[]; nonResourceURLs?: string[] }[] };
const names = (cluster: SimCluster, gvr: typeof ROLES, namespace?: string) =>
  cluster.list(gvr, namespace === undefined ? {} : { namespace }).items.map((s) => s.object.metadata.name).sort();

test('a new cluster holds v1.28\'s bootstrap RBAC policy, labelled and annotated for reconciliation', () => {
  const cluster = createSimCluster();
  const roles = cluster.list(CLUSTER_ROLES, {}).items.map((s) => s.object);
  assert.equal(roles.length, 62, 'ClusterRoles() and ControllerRoles()');
  assert.equal(cluster.list(CLUSTER_ROLE_BINDINGS, {}).items.length, 43);
  for (const r of [...roles, ...cluster.list(CLUSTER_ROLE_BINDINGS, {}).items.map((s) => s.object)]) {
    assert.equal(r.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'true', r.metadata.name);
    assert.equal(r.metadata.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', r.metadata.name);
  }
  const byName = new Map(roles.map((r) => [r.metadata.name, r as KubeObject & Rules & { aggregationRule?: unknown }]));
  assert.deepEqual(byName.get('cluster-admin')?.rules, [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }]);
  for (const name of ['admin', 'edit', 'view']) {
    assert.deepEqual(byName.get(name)?.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${name}`]: 'true' } }] });
  }
  assert.equal(byName.get('view')?.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-edit'], 'true');
  assert.equal(byName.get('edit')?.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-admin'], 'true');
  for (const name of ['system:aggregate-to-view', 'system:discovery', 'system:node', 'system:controller:namespace-controller', 'system:controller:replicaset-controller']) {
    assert.ok(byName.has(name), name);
  }
  const binding = cluster.get(CLUSTER_ROLE_BINDINGS, '', 'cluster-admin').object as KubeObject & { subjects: unknown[]; roleRef: unknown };
  assert.deepEqual(binding.subjects, [{ apiGroup: RBAC, kind: 'Group', name: 'system:masters' }]);
  assert.deepEqual(names(cluster, ROLES, 'kube-system'), [
    'extension-apiserver-authentication-reader', 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-scheduler',
    'system:controller:bootstrap-signer', 'system:controller:cloud-provider', 'system:controller:token-cleaner',
  ]);
  assert.deepEqual(names(cluster, ROLES, 'kube-public'), ['system:controller:bootstrap-signer']);
  assert.equal(cluster.list(ROLE_BINDINGS, {}).items.length, 7);
});

test('the system PriorityClasses', () => {
  const cluster = createSimCluster();
  const classes = cluster.list(PRIORITY_CLASSES, {}).items.map((s) => s.object as KubeObject & { value: number; preemptionPolicy: string });
  assert.deepEqual(classes.map((c) => [c.metadata.name, c.value, c.preemptionPolicy]), [
    ['system-cluster-critical', 2000000000, 'PreemptLowerPriority'],
    ['system-node-critical', 2000001000, 'PreemptLowerPriority'],
  ]);
});

test('a restart from the state dir finds everything in place: nothing created twice, nothing rewritten', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'bootstrap-restart-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const first = createSimCluster({ stateDir: dir });
  await first.close();
  const rv = first.resourceVersion;
  const second = createSimCluster({ stateDir: dir });
  assert.equal(second.resourceVersion, rv, 'no write at all');
  assert.equal(second.list(CLUSTER_ROLES, {}).items.length, 62);
  assert.equal(second.list(PRIORITY_CLASSES, {}).items.length, 2);
  await second.close();
});

test('at start, a role that lost permissions gets them back, with the user\'s additions kept; autoupdate=false is left alone', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'bootstrap-reconcile-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const first = createSimCluster({ stateDir: dir });
  const discovery = structuredClone(first.get(CLUSTER_ROLES, '', 'system:discovery').object) as KubeObject & Rules;
  discovery.rules = [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }];
  first.update(CLUSTER_ROLES, '', 'system:discovery', discovery);
  const basic = structuredClone(first.get(CLUSTER_ROLES, '', 'system:basic-user').object) as KubeObject & Rules;
  basic.rules = [];
  basic.metadata.annotations = { 'rbac.authorization.kubernetes.io/autoupdate': 'false' };
  first.update(CLUSTER_ROLES, '', 'system:basic-user', basic);
  first.delete(CLUSTER_ROLE_BINDINGS, '', 'system:public-info-viewer');
  await first.close();

  const second = createSimCluster({ stateDir: dir });
  const restored = second.get(CLUSTER_ROLES, '', 'system:discovery').object as KubeObject & Required<Rules>;
  assert.deepEqual(restored.rules[0], { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }, 'the user\'s rule stays');
  assert.ok(restored.rules.some((r) => r.nonResourceURLs?.includes('/version')), 'the bootstrap grants are back');
  assert.deepEqual((second.get(CLUSTER_ROLES, '', 'system:basic-user').object as Rules).rules, []);
  assert.ok(second.get(CLUSTER_ROLE_BINDINGS, '', 'system:public-info-viewer'));
  await second.close();
});

test('bootstrap: false (and an empty store) leaves all of it out', () => {
  for (const options of [{ bootstrap: false }, { defaultNamespaces: false }]) {
    const cluster = createSimCluster(options);
    assert.equal(cluster.list(CLUSTER_ROLES, {}).items.length, 0);
    assert.equal(cluster.list(PRIORITY_CLASSES, {}).items.length, 0);
    assert.equal(cluster.bootstrap, false);
  }
});

// Discovery for the kinds beyond the first set: every entry exactly as a real v1.28 kube-apiserver
// reports it — from the recorded reference where it has the group, else as the real server answers
// (storageVersionHash included: it is what `kubectl` and the storage-version migrator compare).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const REFERENCE = '/work/shared/reference/discovery';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS = ['get', 'patch', 'update'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const sim = suiteServer();

const entry = (name: string, kind: string, namespaced: boolean, verbs: string[], extra: Json = {}): Json =>
  ({ name, singularName: name.includes('/') ? '' : kind.toLowerCase(), namespaced, kind, verbs, ...extra });

/** What a real v1.28 server lists per group version, for the resources the sim serves there. */
const REAL_V1_28: Record<string, Json[]> = {
  'networking.k8s.io/v1': [
    entry('ingressclasses', 'IngressClass', false, ALL, { storageVersionHash: 'l/iqIbDgFyQ=' }),
    entry('ingresses', 'Ingress', true, ALL, { shortNames: ['ing'], storageVersionHash: '39NQlfNR+bo=' }),
    entry('ingresses/status', 'Ingress', true, STATUS),
    entry('networkpolicies', 'NetworkPolicy', true, ALL, { shortNames: ['netpol'], storageVersionHash: 'YpfwF18m1G8=' }),
  ],
  'rbac.authorization.k8s.io/v1': [
    entry('clusterrolebindings', 'ClusterRoleBinding', false, ALL, { storageVersionHash: '48tpQ8gZHFc=' }),
    entry('clusterroles', 'ClusterRole', false, ALL, { storageVersionHash: 'bYE5ZWDrJ44=' }),
    entry('rolebindings', 'RoleBinding', true, ALL, { storageVersionHash: 'eGsCzGH6b1g=' }),
    entry('roles', 'Role', true, ALL, { storageVersionHash: '7FuwZcIIItM=' }),
  ],
  'policy/v1': [
    entry('poddisruptionbudgets', 'PodDisruptionBudget', true, ALL, { shortNames: ['pdb'], storageVersionHash: 'EVWiDmWqyJw=' }),
    entry('poddisruptionbudgets/status', 'PodDisruptionBudget', true, STATUS),
  ],
  'autoscaling/v2': [
    entry('horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, ALL, { shortNames: ['hpa'], categories: ['all'], storageVersionHash: 'qwQve8ut294=' }),
    entry('horizontalpodautoscalers/status', 'HorizontalPodAutoscaler', true, STATUS),
  ],
  // Reviews are not stored: no storageVersionHash, create only.
  'authorization.k8s.io/v1': [
    entry('localsubjectaccessreviews', 'LocalSubjectAccessReview', true, ['create']),
    entry('selfsubjectaccessreviews', 'SelfSubjectAccessReview', false, ['create']),
    entry('selfsubjectrulesreviews', 'SelfSubjectRulesReview', false, ['create']),
    entry('subjectaccessreviews', 'SubjectAccessReview', false, ['create']),
  ],
  'authentication.k8s.io/v1': [
    entry('selfsubjectreviews', 'SelfSubjectReview', false, ['create']),
    entry('tokenreviews', 'TokenReview', false, ['create']),
  ],
};

function referenceEntries(file: string, names: string[]): Json[] {
  const doc = JSON.parse(readFileSync(join(REFERENCE, file), 'utf8'));
  return names.map((n) => doc.resources.find((r: Json) => r.name === n));
}

describe('discovery of the added kinds', () => {
  it('core PVCs and PVs, and batch CronJobs, match the recorded v1.28 server entry for entry', async () => {
    const core = (await call(sim.server, 'GET', '/api/v1')).json();
    const coreNames = ['persistentvolumeclaims', 'persistentvolumeclaims/status', 'persistentvolumes', 'persistentvolumes/status'];
    assert.deepEqual(coreNames.map((n) => core.resources.find((r: Json) => r.name === n)), referenceEntries('api_v1.json', coreNames));
    const batch = (await call(sim.server, 'GET', '/apis/batch/v1')).json();
    const batchNames = ['cronjobs', 'cronjobs/status'];
    assert.deepEqual(batchNames.map((n) => batch.resources.find((r: Json) => r.name === n)), referenceEntries('apis_batch_v1.json', batchNames));
  });

  it('networking, RBAC, policy, autoscaling and the review groups list what a v1.28 server lists', async () => {
    for (const [groupVersion, expected] of Object.entries(REAL_V1_28)) {
      const doc = (await call(sim.server, 'GET', `/apis/${groupVersion}`)).json();
      assert.equal(doc.kind, 'APIResourceList', groupVersion);
      assert.equal(doc.groupVersion, groupVersion);
      assert.deepEqual(doc.resources, expected, groupVersion);
    }
    const groups = (await call(sim.server, 'GET', '/apis')).json().groups.map((g: Json) => g.preferredVersion.groupVersion);
    for (const gv of Object.keys(REAL_V1_28)) assert.ok(groups.includes(gv), gv);
  });

  it('the aggregated document carries the same facts: scope, verbs, short names, categories, /status', async () => {
    const doc = (await call(sim.server, 'GET', '/apis', { accept: AGGREGATED })).json();
    const resource = (group: string, name: string): Json =>
      doc.items.find((i: Json) => i.metadata.name === group).versions[0].resources.find((r: Json) => r.resource === name);
    assert.deepEqual(resource('authorization.k8s.io', 'selfsubjectaccessreviews'), {
      resource: 'selfsubjectaccessreviews', responseKind: { group: '', version: '', kind: 'SelfSubjectAccessReview' }, scope: 'Cluster', singularResource: 'selfsubjectaccessreview', verbs: ['create'],
    });
    assert.deepEqual(resource('autoscaling', 'horizontalpodautoscalers'), {
      resource: 'horizontalpodautoscalers', responseKind: { group: '', version: '', kind: 'HorizontalPodAutoscaler' }, scope: 'Namespaced', singularResource: 'horizontalpodautoscaler',
      verbs: ALL, shortNames: ['hpa'], categories: ['all'], subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'HorizontalPodAutoscaler' }, verbs: STATUS }],
    });
    assert.equal(resource('rbac.authorization.k8s.io', 'clusterroles').scope, 'Cluster');
    assert.equal(resource('rbac.authorization.k8s.io', 'roles').subresources, undefined, 'RBAC kinds have no status');
    assert.equal(resource('networking.k8s.io', 'networkpolicies').subresources, undefined);
    const core = (await call(sim.server, 'GET', '/api', { accept: AGGREGATED })).json();
    const pv = core.items[0].versions[0].resources.find((r: Json) => r.resource === 'persistentvolumes');
    assert.deepEqual([pv.scope, pv.shortNames], ['Cluster', ['pv']]);
  });
});

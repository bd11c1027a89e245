// RBAC rule coverage as kube-apiserver's bootstrap reconciliation decides it: which grants of the
// bootstrap policy an existing role lacks (and so gets added at start).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { uncoveredRules } from '../../../../src/sim/bootstrap/policyRules.ts';

test('a rule is covered grant by grant: verbs, groups and resources may be split across rules', () => {
  const owner = [
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['watch'] },
  ];
  assert.deepEqual(uncoveredRules(owner, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }]), []);
  assert.deepEqual(uncoveredRules(owner, [{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get'] }]), [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]);
});

test('wildcards: * verbs, groups and resources; */sub covers every resource\'s subresource; URL prefixes', () => {
  const admin = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['/api/*'], verbs: ['get'] }];
  assert.deepEqual(uncoveredRules(admin, [{ apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['patch'] }, { nonResourceURLs: ['/api/v1'], verbs: ['get'] }]), []);
  assert.deepEqual(uncoveredRules(admin, [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]), [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]);
  const status = [{ apiGroups: ['apps'], resources: ['*/status'], verbs: ['update'] }];
  assert.deepEqual(uncoveredRules(status, [{ apiGroups: ['apps'], resources: ['deployments/status'], verbs: ['update'] }]), []);
  assert.equal(uncoveredRules(status, [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['update'] }]).length, 1);
});

test('resourceNames: a rule without names covers named grants, a named rule only its names', () => {
  const named = [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'], verbs: ['update'] }];
  assert.deepEqual(uncoveredRules(named, [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'], verbs: ['update'] }]), []);
  assert.equal(uncoveredRules(named, [{ apiGroups: [''], resources: ['configmaps'], verbs: ['update'] }]).length, 1);
  assert.deepEqual(uncoveredRules([{ apiGroups: [''], resources: ['configmaps'], verbs: ['update'] }], [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['x'], verbs: ['update'] }]), []);
});

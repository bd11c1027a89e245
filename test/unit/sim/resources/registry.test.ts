import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KindRegistry } from '../../../../src/sim/resources/registry.ts';
import { storageVersionHash } from '../../../../src/sim/resources/builtins.ts';
import { ApiError } from '../../../../src/shared/apiError.ts';

test('storageVersionHash is derived like kube-apiserver\'s (configmaps: qFsyl6wFWjQ=)', () => {
  assert.equal(storageVersionHash('', 'v1', 'ConfigMap'), 'qFsyl6wFWjQ=');
});

test('the registry resolves by GVR, by kind, and by plural, singular, short name or kind', () => {
  const r = new KindRegistry();
  assert.equal(r.lookup({ group: 'apps', version: 'v1', resource: 'deployments' })?.kind, 'Deployment');
  assert.equal(r.lookup({ group: 'apps', version: 'v2', resource: 'deployments' }), undefined);
  assert.throws(() => r.require({ group: '', version: 'v1', resource: 'nope' }), (e: unknown) => e instanceof ApiError && e.code === 404);
  assert.equal(r.byKind('batch/v1', 'Job')?.resource, 'jobs');
  for (const name of ['deploy', 'deployments', 'deployment', 'Deployment', 'deployments.apps']) assert.equal(r.resolveName(name)?.resource, 'deployments', name);
  assert.equal(r.resolveName('ev')?.group, '', 'the core group wins');
  assert.deepEqual(r.inGroupVersion('', 'v1').map((x) => x.resource).sort(), [
    'bindings', 'componentstatuses', 'configmaps', 'endpoints', 'events', 'limitranges', 'namespaces', 'nodes', 'persistentvolumeclaims', 'persistentvolumes', 'pods', 'podtemplates', 'replicationcontrollers', 'resourcequotas', 'secrets', 'serviceaccounts', 'services',
  ]);
  assert.deepEqual(r.groups().map((g) => g.name), [
    'apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'autoscaling', 'batch', 'certificates.k8s.io', 'networking.k8s.io', 'policy', 'rbac.authorization.k8s.io',
    'storage.k8s.io', 'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'scheduling.k8s.io', 'coordination.k8s.io', 'node.k8s.io', 'discovery.k8s.io', 'flowcontrol.apiserver.k8s.io',
  ]);
  for (const [name, resource] of [['cj', 'cronjobs'], ['pvc', 'persistentvolumeclaims'], ['pv', 'persistentvolumes'], ['ing', 'ingresses'], ['netpol', 'networkpolicies'], ['pdb', 'poddisruptionbudgets'], ['hpa', 'horizontalpodautoscalers'], ['clusterrolebinding', 'clusterrolebindings'], ['quota', 'resourcequotas'], ['limits', 'limitranges'], ['pc', 'priorityclasses'], ['sc', 'storageclasses'], ['ingressclass', 'ingressclasses'], ['endpointslice', 'endpointslices']]) {
    assert.equal(r.resolveName(name!)?.resource, resource, name);
  }
});

test('discovery data: scale and status subresources, categories, namespace verbs', () => {
  const r = new KindRegistry();
  const deploy = r.lookup({ group: 'apps', version: 'v1', resource: 'deployments' });
  assert.deepEqual(deploy?.subresources.map((s) => `${s.name}:${s.group ?? ''}/${s.version ?? ''}:${s.kind}`), ['scale:autoscaling/v1:Scale', 'status:/:Deployment']);
  assert.deepEqual(deploy?.categories, ['all']);
  assert.ok(!r.lookup({ group: '', version: 'v1', resource: 'namespaces' })?.verbs.includes('deletecollection'));
});

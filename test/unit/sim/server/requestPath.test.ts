import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestPath, splitUrl } from '../../../../src/sim/server/requestPath.ts';

test('discovery paths', () => {
  assert.deepEqual(parseRequestPath('/api'), { kind: 'coreRoot' });
  assert.deepEqual(parseRequestPath('/api/v1'), { kind: 'groupVersion', group: '', version: 'v1' });
  assert.deepEqual(parseRequestPath('/apis'), { kind: 'groupsRoot' });
  assert.deepEqual(parseRequestPath('/apis/apps'), { kind: 'group', group: 'apps' });
  assert.deepEqual(parseRequestPath('/apis/apps/v1/'), { kind: 'groupVersion', group: 'apps', version: 'v1' });
});

test('namespaced and cluster-scoped resource paths', () => {
  assert.deepEqual(parseRequestPath('/api/v1/namespaces/ns/configmaps'), {
    kind: 'resource', group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', name: '', subresource: '',
  });
  assert.deepEqual(parseRequestPath('/apis/apps/v1/namespaces/ns/deployments/web/scale'), {
    kind: 'resource', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'ns', name: 'web', subresource: 'scale',
  });
  assert.deepEqual(parseRequestPath('/apis/apps/v1/deployments'), {
    kind: 'resource', group: 'apps', version: 'v1', resource: 'deployments', namespace: '', name: '', subresource: '',
  });
});

test('the namespace object itself, with its status subresource', () => {
  assert.deepEqual(parseRequestPath('/api/v1/namespaces'), {
    kind: 'resource', group: '', version: 'v1', resource: 'namespaces', namespace: '', name: '', subresource: '',
  });
  assert.deepEqual(parseRequestPath('/api/v1/namespaces/team-a'), {
    kind: 'resource', group: '', version: 'v1', resource: 'namespaces', namespace: '', name: 'team-a', subresource: '',
  });
  assert.deepEqual(parseRequestPath('/api/v1/namespaces/team-a/status'), {
    kind: 'resource', group: '', version: 'v1', resource: 'namespaces', namespace: '', name: 'team-a', subresource: 'status',
  });
});

test('the deprecated /watch/ prefix', () => {
  assert.deepEqual(parseRequestPath('/api/v1/watch/namespaces/ns/configmaps'), {
    kind: 'resource', group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', name: '', subresource: '', watchPrefix: true,
  });
  assert.deepEqual(parseRequestPath('/apis/apps/v1/watch/namespaces/ns/deployments/web'), {
    kind: 'resource', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'ns', name: 'web', subresource: '', watchPrefix: true,
  });
  assert.deepEqual(parseRequestPath('/apis/apps/v1/watch/namespaces/ns/deployments/web/status'), { kind: 'unknown' });
});

test('other paths', () => {
  assert.deepEqual(parseRequestPath('/version'), { kind: 'version' });
  assert.deepEqual(parseRequestPath('/readyz'), { kind: 'health', endpoint: 'readyz', check: '' });
  assert.deepEqual(parseRequestPath('/openapi/v3/apis/apps/v1'), { kind: 'openapi', path: 'v3/apis/apps/v1' });
  assert.deepEqual(parseRequestPath('/controller-lab/admin/compact'), { kind: 'admin', path: ['compact'] });
  assert.deepEqual(parseRequestPath('/nope'), { kind: 'unknown' });
  assert.deepEqual(parseRequestPath('/api/v1/namespaces/a/configmaps/b/c/d'), { kind: 'unknown' });
  assert.deepEqual(parseRequestPath('/api/v1/namespaces/%zz/configmaps'), { kind: 'unknown' });
});

test('splitUrl keeps the raw query', () => {
  assert.deepEqual(splitUrl('/api/v1/pods?watch=1&labelSelector=a%3Db'), { path: '/api/v1/pods', query: 'watch=1&labelSelector=a%3Db' });
  assert.deepEqual(splitUrl('/api'), { path: '/api', query: '' });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { CRD, newCluster, record, tick } from './helpers.ts';

const WIDGETS = { group: 'example.com', version: 'v1', resource: 'widgets' };

function widgetCrd(scope = 'Namespaced', extra: Partial<{ status: boolean; v2: boolean }> = {}): KubeObject {
  // Fields are kept as they are: these tests are about serving, not about the schema's pruning.
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  const versions: unknown[] = [{ name: 'v1', served: true, storage: true, schema, ...(extra.status ? { subresources: { status: {} } } : {}) }];
  if (extra.v2) versions.push({ name: 'v2', served: true, storage: false, schema });
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope, names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] }, versions },
  };
}

test('a created CRD makes its resource served, with Established and NamesAccepted True', () => {
  const { cluster } = newCluster();
  let changes = 0;
  cluster.resources.onDidChange(() => changes++);
  cluster.create(CRD, '', widgetCrd('Namespaced', { status: true }));
  // Established by the follow-up work of the create, before it returns (its answer is from before).
  const crd = cluster.get(CRD, '', 'widgets.example.com');
  const conditions = (crd.object.status as { conditions: { type: string; status: string }[] }).conditions;
  assert.deepEqual(conditions.map((c) => `${c.type}=${c.status}`).sort(), ['Established=True', 'NamesAccepted=True']);
  assert.equal(changes, 1);
  const info = cluster.resources.lookup(WIDGETS);
  assert.ok(info);
  assert.equal(info.kind, 'Widget');
  assert.equal(info.namespaced, true);
  assert.deepEqual(info.shortNames, ['wd']);
  assert.deepEqual(info.subresources.map((s) => s.name), ['status']);
  assert.equal(cluster.resources.resolveName('wd')?.resource, 'widgets');
  assert.ok(cluster.resources.groups().some((g) => g.name === 'example.com'));

  const w = cluster.create(WIDGETS, 'default', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } });
  assert.equal(w.object.metadata.generation, 1);
  const s = cluster.patch(WIDGETS, 'default', 'w1', 'merge', { status: { ok: true } }, 'status');
  assert.deepEqual(s.object.status, { ok: true });
});

test('cluster-scoped CRDs serve cluster-scoped resources; every served version answers', () => {
  const { cluster } = newCluster();
  cluster.create(CRD, '', widgetCrd('Cluster', { v2: true }));
  const w = cluster.create(WIDGETS, '', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } });
  assert.equal(w.object.metadata.namespace, undefined);
  const v2 = cluster.get({ ...WIDGETS, version: 'v2' }, '', 'w1');
  assert.equal(v2.object.apiVersion, 'example.com/v2');
  assert.equal(cluster.list({ ...WIDGETS, version: 'v2' }, {}).items[0]?.object.apiVersion, 'example.com/v2');
});

test('strategic merge patch on a custom resource is 415 like the real server', () => {
  const { cluster } = newCluster();
  cluster.create(CRD, '', widgetCrd());
  cluster.create(WIDGETS, 'default', { metadata: { name: 'w1' }, spec: {} });
  assert.throws(() => cluster.patch(WIDGETS, 'default', 'w1', 'strategic', { spec: { a: 1 } }), (e: unknown) => e instanceof ApiError && e.code === 415 &&
    e.message === 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
});

test('deleting the CRD deletes its objects, tells its watches, ends them and unserves it', async () => {
  const { cluster } = newCluster();
  cluster.create(CRD, '', widgetCrd());
  cluster.create(WIDGETS, 'default', { metadata: { name: 'w1' } });
  cluster.create(WIDGETS, 'default', { metadata: { name: 'w2' } });
  const w = record(cluster, WIDGETS, { resourceVersion: String(cluster.resourceVersion) });
  cluster.delete(CRD, '', 'widgets.example.com');
  assert.equal(cluster.resources.lookup(WIDGETS), undefined);
  assert.throws(() => cluster.list(WIDGETS, {}), (e: unknown) => e instanceof ApiError && e.code === 404);
  await tick();
  // As kube-apiserver: the watchers are told of each object's delete before the stream ends.
  assert.deepEqual(w.events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`), ['DELETED w1', 'DELETED w2']);
  assert.equal(w.closed, 'unserved');
  // Served again from scratch when recreated.
  cluster.create(CRD, '', widgetCrd());
  assert.equal(cluster.list(WIDGETS, {}).items.length, 0);
});

test('an invalid CRD is 422 with the field named', () => {
  const { cluster } = newCluster();
  const bad = widgetCrd();
  bad.metadata.name = 'wrong.example.com';
  assert.throws(() => cluster.create(CRD, '', bad), (e: unknown) =>
    e instanceof ApiError && e.code === 422 && e.status?.details?.causes?.some((c) => c.field === 'metadata.name') === true);
});

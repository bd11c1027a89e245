import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/shared/apiError.ts';
import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { DEPLOY, newCluster } from './helpers.ts';

// The rules kube-apiserver's strategies give single kinds: Secret conversion and defaults, ConfigMap
// and Secret keys and sizes, Deployment generations, the annotation and etcd size limits.

const CM = { group: '', version: 'v1', resource: 'configmaps' };
const SECRETS = { group: '', version: 'v1', resource: 'secrets' };
const PODS = { group: '', version: 'v1', resource: 'pods' };

function refused(fn: () => unknown, code: number, message: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, code);
    assert.match(err.message, message);
    return true;
  });
}

test('a Secret\'s stringData is stored as base64 data (its keys win) and type defaults to Opaque', () => {
  const { cluster } = newCluster();
  const s = cluster.create(SECRETS, 'default', { metadata: { name: 's' }, data: { a: Buffer.from('old').toString('base64'), b: 'Yg==' }, stringData: { a: 'new', c: 'sea' } }).object as KubeObject;
  assert.deepEqual(s.data, { a: Buffer.from('new').toString('base64'), b: 'Yg==', c: Buffer.from('sea').toString('base64') });
  assert.equal(s.stringData, undefined);
  assert.equal(s.type, 'Opaque');
  const patched = cluster.patch(SECRETS, 'default', 's', 'merge', { stringData: { d: 'dee' } }).object as KubeObject;
  assert.equal((patched.data as Record<string, string>).d, Buffer.from('dee').toString('base64'));
  assert.equal(patched.stringData, undefined);
});

test('a Secret\'s type is immutable and the built-in types need their keys', () => {
  const { cluster } = newCluster();
  cluster.create(SECRETS, 'default', { metadata: { name: 's' }, stringData: { a: 'x' } });
  refused(() => cluster.patch(SECRETS, 'default', 's', 'merge', { type: 'kubernetes.io/tls' }), 422, /type: Invalid value: "kubernetes.io\/tls": field is immutable/);
  refused(() => cluster.create(SECRETS, 'default', { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'c' } }), 422, /data\[tls\.key\]: Required value/);
});

test('ConfigMap keys must be config keys, unique across data and binaryData, 1 MiB in all', () => {
  const { cluster } = newCluster();
  refused(() => cluster.create(CM, 'default', { metadata: { name: 'k' }, data: { 'a b': 'x' } }), 422, /ConfigMap "k" is invalid: data\[a b\]: Invalid value: "a b": a valid config key must consist of alphanumeric characters/);
  refused(() => cluster.create(CM, 'default', { metadata: { name: 'd' }, data: { a: 'x' }, binaryData: { a: 'eA==' } }), 422, /duplicate of key present in binaryData/);
  refused(() => cluster.create(CM, 'default', { metadata: { name: 'big' }, data: { a: 'x'.repeat(2 * 1024 * 1024) } }), 422, /\[\]: Too long: must have at most 1048576 bytes/);
  assert.equal(cluster.list(CM, { namespace: 'default' }).items.length, 0);
});

test('annotations over 256 KiB in all are refused', () => {
  const { cluster } = newCluster();
  refused(() => cluster.create(CM, 'default', { metadata: { name: 'a', annotations: { a: 'x'.repeat(200_000), b: 'y'.repeat(100_000) } } }), 422, /metadata\.annotations: Too long: must have at most 262144 bytes/);
});

test('an object over etcd\'s 1.5 MiB is refused as etcd refuses it, and the revision does not move', () => {
  const { cluster } = newCluster();
  const rv = cluster.resourceVersion;
  const env = [{ name: 'BIG', value: 'x'.repeat(1_700_000) }];
  refused(() => cluster.create(PODS, 'default', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', env }] } }), 500, /^etcdserver: request is too large$/);
  assert.equal(cluster.resourceVersion, rv);
});

test('a Deployment\'s generation moves on annotation changes as on spec changes, not on labels', () => {
  const { cluster } = newCluster();
  const spec = { replicas: 1, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } };
  cluster.create(DEPLOY, 'default', { metadata: { name: 'd' }, spec });
  const annotated = cluster.patch(DEPLOY, 'default', 'd', 'merge', { metadata: { annotations: { note: 'x' } } }).object;
  assert.equal(annotated.metadata.generation, 2);
  const labelled = cluster.patch(DEPLOY, 'default', 'd', 'merge', { metadata: { labels: { team: 'y' } } }).object;
  assert.equal(labelled.metadata.generation, 2);
  const scaled = cluster.patch(DEPLOY, 'default', 'd', 'merge', { spec: { replicas: 3 } }).object;
  assert.equal(scaled.metadata.generation, 3);
});

test('a /status write may set a Deployment\'s annotations without moving its generation (how the revision is recorded)', () => {
  const { cluster } = newCluster();
  const spec = { replicas: 1, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } };
  const created = structuredClone(cluster.create(DEPLOY, 'default', { metadata: { name: 'd' }, spec }).object) as KubeObject;
  created.metadata.annotations = { 'deployment.kubernetes.io/revision': '1' };
  created.status = { observedGeneration: 1 };
  const written = cluster.update(DEPLOY, 'default', 'd', created, 'status').object;
  assert.equal(written.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
  assert.equal(written.metadata.generation, 1);
});

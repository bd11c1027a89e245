// A /status write keeps the request's metadata where kube-apiserver's status strategy does (most
// built-in kinds reset only spec), keeps a Deployment's labels and a Pod's ownerReferences as
// stored, and takes nothing but status from a custom resource's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const MERGE = 'application/merge-patch+json';

async function created(path: string, body: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const answer = await call(suite.server, 'POST', path, { body });
  assert.equal(answer.status, 201, answer.body);
  return answer.json();
}

async function patchStatus(path: string, patch: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const answer = await call(suite.server, 'PATCH', `${path}/status`, { body: patch, contentType: MERGE });
  assert.equal(answer.status, 200, answer.body);
  return answer.json();
}

describe('a /status write of a built-in kind', () => {
  it('keeps the annotations and labels a merge patch brings (a Namespace)', async () => {
    await created('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'status-meta' } });
    const patched = await patchStatus('/api/v1/namespaces/status-meta', {
      metadata: { annotations: { patchedstatus: 'true' }, labels: { seen: 'yes' } },
      status: { conditions: [{ type: 'StatusPatch', status: 'True' }] },
    });
    assert.equal(patched.metadata.annotations?.patchedstatus, 'true');
    assert.equal(patched.metadata.labels?.seen, 'yes');
    assert.equal(patched.status.conditions[0].type, 'StatusPatch');
    const dropped = await patchStatus('/api/v1/namespaces/status-meta', { metadata: { labels: null } });
    assert.deepEqual(dropped.metadata.labels, { 'kubernetes.io/metadata.name': 'status-meta' }, 'the name label is defaulted back');
  });

  it('keeps the metadata of an UpdateStatus body but not its spec (a Service)', async () => {
    const svc = await created('/api/v1/namespaces/default/services', {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'status-meta' }, spec: { ports: [{ port: 80 }] },
    });
    svc.metadata.annotations = { updatedstatus: 'true' };
    svc.spec.ports[0].port = 81;
    svc.status = { conditions: [{ type: 'StatusUpdate', status: 'True', reason: 'E2E', message: 'set', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    const answer = await call(suite.server, 'PUT', '/api/v1/namespaces/default/services/status-meta/status', { body: svc });
    assert.equal(answer.status, 200, answer.body);
    const updated = answer.json();
    assert.equal(updated.metadata.annotations?.updatedstatus, 'true');
    assert.equal(updated.spec.ports[0].port, 80);
    assert.equal(updated.status.conditions[0].type, 'StatusUpdate');
  });

  it('keeps a Deployment\'s labels as stored, and takes its annotations', async () => {
    const path = '/apis/apps/v1/namespaces/default/deployments';
    await created(path, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'status-meta', labels: { app: 'a' } },
      spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const patched = await patchStatus(`${path}/status-meta`, { metadata: { labels: { app: 'b' }, annotations: { note: 'x' } }, status: { replicas: 0 } });
    assert.deepEqual(patched.metadata.labels, { app: 'a' });
    assert.equal(patched.metadata.annotations?.note, 'x');
  });

  it('keeps a Pod\'s ownerReferences as stored', async () => {
    const path = '/api/v1/namespaces/default/pods';
    await created(path, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'status-meta' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '00000000-0000-0000-0000-000000000001' };
    const patched = await patchStatus(`${path}/status-meta`, { metadata: { ownerReferences: [owner], labels: { l: 'v' } }, status: { phase: 'Running' } });
    assert.equal(patched.metadata.ownerReferences, undefined);
    assert.equal(patched.metadata.labels?.l, 'v');
  });
});

describe('a /status write of a custom resource', () => {
  it('takes only status: the stored metadata stays', async () => {
    await created('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    const path = '/apis/example.com/v1/namespaces/default/gadgets';
    await created(path, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g', labels: { a: '1' } } });
    const patched = await patchStatus(`${path}/g`, { metadata: { labels: { a: '2' }, annotations: { n: 'x' } }, status: { ready: true } });
    assert.deepEqual(patched.metadata.labels, { a: '1' });
    assert.equal(patched.metadata.annotations, undefined);
    assert.deepEqual(patched.status, { ready: true });
  });
});

// Deleting a Namespace or a CustomResourceDefinition over HTTP, as kube-apiserver v1.28.4 answers
// it: a namespace's first delete takes the garbage collector's finalizer its propagation policy
// names (foregroundDeletion, orphan); a CRD's is marked Terminating behind the
// customresourcecleanup finalizer whatever the policy, and goes once its objects are gone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, openWatch } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();

interface Event {
  type: string;
  object: { metadata: { name: string; finalizers?: string[]; deletionTimestamp?: string }; spec?: { finalizers?: string[] }; status?: { conditions?: { type: string; status: string; reason: string }[] } };
}

async function watchedDuring(path: string, name: string, act: () => Promise<void>, events: number): Promise<Event[]> {
  const rv = (await call(suite.server, 'GET', path)).json().metadata.resourceVersion;
  const watch = await openWatch(suite.server, `${path}?watch=true&resourceVersion=${rv}&fieldSelector=metadata.name%3D${name}`);
  try {
    await act();
    return (await watch.waitForLines(events)).map((l) => JSON.parse(l) as Event);
  } finally {
    watch.close();
  }
}

describe('deleting a Namespace', () => {
  it('in the foreground answers it with the foregroundDeletion finalizer beside spec.finalizers, which the garbage collector then removes', async () => {
    await call(suite.server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'fg' } } });
    let answer: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any
    const events = await watchedDuring('/api/v1/namespaces', 'fg', async () => {
      const r = await call(suite.server, 'DELETE', '/api/v1/namespaces/fg', { body: { propagationPolicy: 'Foreground' } });
      assert.equal(r.status, 200, r.body);
      answer = r.json();
    }, 3);
    assert.deepEqual(answer['metadata'].finalizers, ['foregroundDeletion']);
    assert.deepEqual(answer['spec'].finalizers, ['kubernetes']);
    assert.equal(answer['status'].phase, 'Terminating');
    assert.deepEqual(events[0]!.object.metadata.finalizers, ['foregroundDeletion']);
    assert.equal(events.at(-1)!.type, 'DELETED');
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/fg')).status, 404);
  });

  it('orphaning answers it with the orphan finalizer; without a policy it has none', async () => {
    await call(suite.server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'orph' } } });
    const orphan = await call(suite.server, 'DELETE', '/api/v1/namespaces/orph?propagationPolicy=Orphan');
    assert.deepEqual(orphan.json().metadata.finalizers, ['orphan']);
    await call(suite.server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'plain' } } });
    const plain = await call(suite.server, 'DELETE', '/api/v1/namespaces/plain');
    assert.equal(plain.json().metadata.finalizers, undefined);
  });

  it('without a garbage collector stays Terminating behind its foregroundDeletion finalizer', async () => {
    suite.cluster.setDeletionControllers(false);
    try {
      await call(suite.server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'held' } } });
      await call(suite.server, 'DELETE', '/api/v1/namespaces/held?propagationPolicy=Foreground');
      const ns = (await call(suite.server, 'GET', '/api/v1/namespaces/held')).json();
      assert.deepEqual(ns.metadata.finalizers, ['foregroundDeletion']);
      assert.equal(ns.status.phase, 'Terminating');
    } finally {
      suite.cluster.setDeletionControllers(true);
    }
  });
});

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.fid.example.com' },
  spec: {
    group: 'fid.example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

describe('deleting a CustomResourceDefinition', () => {
  it('in the foreground answers it Terminating behind customresourcecleanup, then takes its objects and goes', async () => {
    assert.equal((await call(suite.server, 'POST', CRDS, { body: widgetCrd })).status, 201);
    const widget = await call(suite.server, 'POST', '/apis/fid.example.com/v1/namespaces/default/widgets', { body: { apiVersion: 'fid.example.com/v1', kind: 'Widget', metadata: { name: 'w1' } } });
    assert.equal(widget.status, 201, widget.body);
    let answer: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any
    const events = await watchedDuring(CRDS, widgetCrd.metadata.name, async () => {
      const r = await call(suite.server, 'DELETE', `${CRDS}/${widgetCrd.metadata.name}`, { body: { propagationPolicy: 'Foreground' } });
      assert.equal(r.status, 200, r.body);
      answer = r.json();
    }, 3);
    assert.deepEqual(answer['metadata'].finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    assert.ok(answer['metadata'].deletionTimestamp);
    const terminating = answer['status'].conditions.find((c: { type: string }) => c.type === 'Terminating');
    assert.deepEqual([terminating.status, terminating.reason], ['True', 'InstanceDeletionPending']);
    assert.deepEqual(events.map((e) => e.type), ['MODIFIED', 'MODIFIED', 'DELETED']);
    assert.deepEqual(events[0]!.object.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    const reasons = events.map((e) => e.object.status!.conditions!.find((c) => c.type === 'Terminating')!.reason);
    assert.deepEqual(reasons, ['InstanceDeletionPending', 'InstanceDeletionInProgress', 'InstanceDeletionInProgress']);
    assert.equal((await call(suite.server, 'GET', '/apis/fid.example.com/v1/namespaces/default/widgets/w1')).status, 404);
    assert.equal((await call(suite.server, 'GET', `${CRDS}/${widgetCrd.metadata.name}`)).status, 404);
  });
});

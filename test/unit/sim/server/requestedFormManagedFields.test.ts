// managedFields record what an update asked for, before the kind's strategy puts back what the
// write may not change, as kube-apiserver's field manager does: a custom resource's /status write
// that sends labels keeps the stored labels yet records its manager as owning those it sent; a
// patch that moves a deleting object's deletionTimestamp leaves it as it was yet is recorded.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GADGETS = '/apis/rf.example.com/v1/namespaces/default/gadgets';
const CMS = '/api/v1/namespaces/default/configmaps';
const MERGE = 'application/merge-patch+json';

interface Entry { manager: string; subresource?: string; fieldsV1: Record<string, unknown> }
const entries = (body: { metadata: { managedFields?: Entry[] } }): Entry[] => body.metadata.managedFields ?? [];

describe('managedFields of an update the strategy partly undoes', () => {
  before(async () => {
    const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
    const crd = await call(suite.server, 'POST', CRDS, {
      body: {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.rf.example.com' },
        spec: { group: 'rf.example.com', scope: 'Namespaced', names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' }, versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { status: {} } }] },
      },
    });
    assert.equal(crd.status, 201, crd.body);
  });

  it('a custom resource\'s /status write owns the labels it sent, which are not stored', async () => {
    assert.equal((await call(suite.server, 'POST', GADGETS, { body: { apiVersion: 'rf.example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 1 } } })).status, 201);
    const patched = await call(suite.server, 'PATCH', `${GADGETS}/g/status`, { body: { metadata: { labels: { x: 'y' } }, spec: { size: 2 }, status: { ready: true } }, contentType: MERGE });
    assert.equal(patched.status, 200, patched.body);
    const body = patched.json();
    assert.equal(body.metadata.labels, undefined, 'the labels are not stored');
    assert.deepEqual(body.spec, { size: 1 }, 'nor the spec');
    const status = entries(body).find((e) => e.subresource === 'status');
    assert.deepEqual(status?.fieldsV1, { 'f:metadata': { 'f:labels': { '.': {}, 'f:x': {} } }, 'f:status': { '.': {}, 'f:ready': {} } });
  });

  it('a patch of a deleting object\'s deletionTimestamp owns it, and leaves it as it was', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } })).status, 201);
    const deleting = (await call(suite.server, 'DELETE', `${CMS}/held`)).json();
    const was = deleting.metadata.deletionTimestamp;
    assert.ok(was);
    const patched = await call(suite.server, 'PATCH', `${CMS}/held`, { body: { metadata: { deletionTimestamp: '2030-01-01T00:00:00Z' } }, contentType: MERGE });
    assert.equal(patched.status, 200, patched.body);
    assert.equal(patched.json().metadata.deletionTimestamp, was);
    const metadata = entries(patched.json())[0]?.fieldsV1['f:metadata'] as Record<string, unknown>;
    assert.deepEqual(metadata['f:deletionTimestamp'], {});
    await call(suite.server, 'PATCH', `${CMS}/held`, { body: { metadata: { finalizers: null } }, contentType: MERGE });
  });
});

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// A custom resource's /status write is checked as kube-apiserver checks it: the status alone
// against the status schema, so a cause names the field from inside the status (`ready`, as
// kube-apiserver v1.28.4 answered), while a write of the resource names it from the root; a
// create drops the status before it is validated.

const suite = suiteServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GADGETS = '/apis/status.example.com/v1/namespaces/default/gadgets';
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.status.example.com' },
  spec: {
    group: 'status.example.com', names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' }, scope: 'Namespaced',
    versions: [{
      name: 'v1', served: true, storage: true, subresources: { status: {} },
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } }, status: { type: 'object', properties: { ready: { type: 'boolean' }, conditions: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } } } } } } } },
    }],
  },
};
const merge = (path: string, body: unknown) => call(suite.server, 'PATCH', path, { body, contentType: 'application/merge-patch+json' });

describe('a custom resource\'s /status validation', () => {
  before(async () => {
    assert.equal((await call(suite.server, 'POST', CRDS, { body: crd })).status, 201);
    assert.equal((await call(suite.server, 'POST', GADGETS, { body: { apiVersion: 'status.example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 1 } } })).status, 201);
  });

  it('names a status field from inside the status', async () => {
    const r = await merge(`${GADGETS}/g/status`, { status: { ready: 'yes' } });
    assert.equal(r.status, 422, r.body);
    assert.equal(r.json().message, 'Gadget.status.example.com "g" is invalid: ready: Invalid value: "string": ready in body must be of type boolean: "string"');
    const nested = await merge(`${GADGETS}/g/status`, { status: { conditions: [{}] } });
    assert.equal(nested.json().details.causes[0].field, 'conditions[0].type');
  });

  it('keeps the stored deletion grace period whatever a /status write says, and refuses a change of it on the resource', async () => {
    const status = await merge(`${GADGETS}/g/status`, { metadata: { deletionGracePeriodSeconds: 7 } });
    assert.equal(status.status, 200, status.body);
    assert.equal(status.json().metadata.deletionGracePeriodSeconds, undefined);
    const main = await merge(`${GADGETS}/g`, { metadata: { deletionGracePeriodSeconds: 7 } });
    assert.equal(main.status, 422, main.body);
    assert.equal(main.json().message, 'Gadget.status.example.com "g" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 7: field is immutable');
  });

  it('drops the status a create carries before validating it, and names a field from the root on a write of the resource itself', async () => {
    const withStatus = await call(suite.server, 'POST', GADGETS, { body: { apiVersion: 'status.example.com/v1', kind: 'Gadget', metadata: { name: 'h' }, status: { ready: 'yes' } } });
    assert.equal(withStatus.status, 201, withStatus.body);
    assert.equal(withStatus.json().status, undefined);
    const r = await merge(`${GADGETS}/h`, { spec: { size: 'x' } });
    assert.equal(r.status, 422, r.body);
    assert.equal(r.json().details.causes[0].field, 'spec.size');
  });
});

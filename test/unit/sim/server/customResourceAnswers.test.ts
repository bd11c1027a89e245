import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// Custom resources and their definitions answered as kube-apiserver answers them: a version nobody
// serves is no route (plain-text 404), a body of another kind is refused by the CR validator, a
// field selector by the CR's field label conversion, and a CRD without exactly one storage version
// with the validator's words (Go's print of the versions) and the stored-versions rule. A new CRD
// is answered before its names are accepted, as the real controllers accept them just after.

const suite = suiteServer();
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const crd = (group: string, versions: unknown[]) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `things.${group}` },
  spec: { group, names: { kind: 'Thing', plural: 'things', singular: 'thing', listKind: 'ThingList' }, scope: 'Namespaced', versions },
});
const version = (name: string, storage: boolean) => ({ name, served: true, storage, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } });

describe('custom resources', () => {
  before(async () => {
    assert.equal((await call(suite.server, 'POST', CRDS, { body: crd('cr.example.com', [version('v1', true)]) })).status, 201);
  });

  it('a version the group does not serve is the mux\'s plain-text 404', async () => {
    const r = await call(suite.server, 'GET', '/apis/cr.example.com/v9/namespaces/default/things');
    assert.equal(r.status, 404);
    assert.equal(r.body, '404 page not found\n');
    const unknownResource = await call(suite.server, 'GET', '/apis/cr.example.com/v1/namespaces/default/gadgets');
    assert.equal(unknownResource.json().kind, 'Status', 'an unknown resource of a served version is a Status');
  });

  it('a body of another kind is invalid, named by that kind', async () => {
    const r = await call(suite.server, 'POST', '/apis/cr.example.com/v1/namespaces/default/things', { body: { apiVersion: 'cr.example.com/v1', kind: 'Gadget', metadata: { name: 'g' } } });
    assert.equal(r.status, 422, r.body);
    assert.equal(r.json().message, 'Gadget.cr.example.com "g" is invalid: kind: Invalid value: "Gadget": must be Thing');
    assert.equal(r.json().details.kind, 'Gadget');
  });

  it('a subresource the CRD does not enable is the object not found, as the CR handler says', async () => {
    const r = await call(suite.server, 'PUT', '/apis/cr.example.com/v1/namespaces/default/things/t/status', { body: { apiVersion: 'cr.example.com/v1', kind: 'Thing', metadata: { name: 't' } } });
    assert.equal(r.status, 404);
    assert.equal(r.json().message, 'things.cr.example.com "t" not found');
    assert.deepEqual(r.json().details, { name: 't', group: 'cr.example.com', kind: 'things' });
  });

  it('a list says `continue: ""` when no page follows, as kube-apiserver\'s unstructured list does; a built-in list leaves it out', async () => {
    const things = '/apis/cr.example.com/v1/namespaces/default/things';
    for (const name of ['c1', 'c2']) {
      assert.equal((await call(suite.server, 'POST', things, { body: { apiVersion: 'cr.example.com/v1', kind: 'Thing', metadata: { name } } })).status, 201);
    }
    const whole = (await call(suite.server, 'GET', `${things}?fieldSelector=metadata.namespace%3Ddefault`)).json();
    assert.deepEqual(Object.keys(whole.metadata), ['continue', 'resourceVersion']);
    assert.equal(whole.metadata.continue, '');
    const first = (await call(suite.server, 'GET', `${things}?limit=1`)).json();
    assert.ok(first.metadata.continue);
    const last = (await call(suite.server, 'GET', `${things}?limit=1&continue=${encodeURIComponent(first.metadata.continue)}`)).json();
    assert.equal(last.metadata.continue, '');
    const configMaps = (await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps')).json();
    assert.equal('continue' in configMaps.metadata, false);
  });

  it('a field selector on a field the CR does not select by is a field label not supported', async () => {
    const r = await call(suite.server, 'GET', '/apis/cr.example.com/v1/namespaces/default/things?fieldSelector=spec.size%3D1');
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'field label not supported: spec.size');
  });
});

describe('creating a CRD', () => {
  it('answers it as stored, before its names are accepted, then establishes it', async () => {
    const r = await call(suite.server, 'POST', CRDS, { body: crd('fresh.example.com', [version('v1', true)]) });
    assert.equal(r.status, 201, r.body);
    const created = r.json();
    assert.deepEqual(created.spec.conversion, { strategy: 'None' }, 'no conversion named is no conversion');
    assert.deepEqual(created.status, { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    const spec = created.metadata.managedFields[0].fieldsV1['f:spec'];
    assert.equal('.' in spec['f:names'], false, 'names is in the zero value of a spec');
    assert.ok('.' in spec['f:conversion'], 'conversion is not');
    const read = (await call(suite.server, 'GET', `${CRDS}/things.fresh.example.com`)).json();
    assert.deepEqual(read.status.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`), ['NamesAccepted=True', 'Established=True']);
    assert.equal(read.status.acceptedNames.kind, 'Thing');
  });
});

describe('CRD storage versions', () => {
  it('no versions: none marked for storage and no stored version', async () => {
    const r = await call(suite.server, 'POST', CRDS, { body: crd('none.example.com', []) });
    assert.equal(r.status, 422, r.body);
    assert.equal(r.json().message, 'CustomResourceDefinition.apiextensions.k8s.io "things.none.example.com" is invalid: [spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{}: must have exactly one version marked as storage version, status.storedVersions: Invalid value: []string(nil): must have at least one stored version]');
  });

  it('two storage versions: the second is not among the stored versions', async () => {
    const r = await call(suite.server, 'POST', CRDS, { body: crd('two.example.com', [version('v1', true), version('v2', true)]) });
    assert.equal(r.status, 422, r.body);
    const v = (name: string) => `apiextensions.CustomResourceDefinitionVersion{Name:"${name}", Served:true, Storage:true, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}`;
    assert.equal(r.json().message, `CustomResourceDefinition.apiextensions.k8s.io "things.two.example.com" is invalid: [spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${v('v1')}, ${v('v2')}}: must have exactly one version marked as storage version, status.storedVersions: Invalid value: []string{"v1"}: must have the storage version v2]`);
  });
});

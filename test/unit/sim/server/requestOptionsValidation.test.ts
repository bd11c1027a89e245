import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, type Answer } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// A request's options are validated as kube-apiserver validates them: a bad one is a 422 Invalid
// naming the options' kind (CreateOptions, ListOptions, ...) with one cause per problem, not a 400.

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });

function invalidOptions(r: Answer, message: string, causes: { reason: string; field: string }[]): void {
  assert.equal(r.status, 422, r.body);
  const status = r.json();
  assert.equal(status.reason, 'Invalid');
  assert.equal(status.message, message);
  assert.equal(status.details.group, 'meta.k8s.io');
  assert.deepEqual(status.details.causes.map((c: { reason: string; field: string }) => ({ reason: c.reason, field: c.field })), causes);
}

describe('write options', () => {
  it('an unknown dryRun value is an unsupported CreateOptions value', async () => {
    invalidOptions(await call(suite.server, 'POST', `${CMS}?dryRun=Bogus`, { body: cm('dry') }),
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
      [{ reason: 'FieldValueNotSupported', field: 'dryRun' }]);
  });

  it('a fieldManager over 128 bytes is too long', async () => {
    invalidOptions(await call(suite.server, 'POST', `${CMS}?fieldManager=${'m'.repeat(129)}`, { body: cm('fm') }),
      'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes',
      [{ reason: 'FieldValueTooLong', field: 'fieldManager' }]);
  });

  it('an update names UpdateOptions, with every problem a cause', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: cm('upd') })).status, 201);
    invalidOptions(await call(suite.server, 'PUT', `${CMS}/upd?fieldValidation=Bogus&dryRun=Some`, { body: cm('upd') }),
      'UpdateOptions.meta.k8s.io "" is invalid: [dryRun: Unsupported value: []string{"Some"}: supported values: "All", fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"]',
      [{ reason: 'FieldValueNotSupported', field: 'dryRun' }, { reason: 'FieldValueNotSupported', field: 'fieldValidation' }]);
  });

  it('orphanDependents and propagationPolicy together are invalid DeleteOptions', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: cm('both') })).status, 201);
    invalidOptions(await call(suite.server, 'DELETE', `${CMS}/both`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: true, propagationPolicy: 'Foreground' } }),
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set',
      [{ reason: 'FieldValueInvalid', field: 'propagationPolicy' }]);
    assert.equal((await call(suite.server, 'GET', `${CMS}/both`)).status, 200, 'still there');
  });

  it('a DELETE body of another kind is not decodable as DeleteOptions: an unclassified 500', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: cm('wrongkind') })).status, 201);
    const r = await call(suite.server, 'DELETE', `${CMS}/wrongkind`, { body: { kind: 'ConfigMap', apiVersion: 'v1' } });
    assert.equal(r.status, 500, r.body);
    assert.equal(r.json().message, 'no kind "ConfigMap" is registered for version "v1" in scheme "pkg/runtime/scheme.go:100"');
    assert.equal(r.json().reason, undefined);
  });
});

describe('list options', () => {
  it('an unknown resourceVersionMatch is an unsupported ListOptions value', async () => {
    invalidOptions(await call(suite.server, 'GET', `${CMS}?resourceVersion=0&resourceVersionMatch=Bogus`),
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""',
      [{ reason: 'FieldValueNotSupported', field: 'resourceVersionMatch' }]);
  });

  it('sendInitialEvents is for a watch, never a list', async () => {
    invalidOptions(await call(suite.server, 'GET', `${CMS}?sendInitialEvents=true`),
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
      [{ reason: 'FieldValueForbidden', field: 'sendInitialEvents' }]);
  });
});

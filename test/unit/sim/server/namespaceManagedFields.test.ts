import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// A namespace's `kubernetes.io/metadata.name` label is defaulted as the request is decoded, so
// the request's field manager owns it, as kube-apiserver v1.28.4 records it; the namespaces the
// server makes itself are owned by kube-apiserver.

const suite = suiteServer();
const LABEL_FIELDS = { 'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/metadata.name': {} } } };

describe('namespace managed fields', () => {
  it('records the name label under the creating manager', async () => {
    const r = await call(suite.server, 'POST', '/api/v1/namespaces?fieldManager=creator', { body: { metadata: { name: 'owned' } } });
    assert.equal(r.status, 201, r.body);
    const entries = r.json().metadata.managedFields.map((e: { manager: string; fieldsV1: unknown }) => ({ manager: e.manager, fieldsV1: e.fieldsV1 }));
    assert.deepEqual(entries, [{ manager: 'creator', fieldsV1: LABEL_FIELDS }]);
  });

  it('records the system namespaces under kube-apiserver', async () => {
    const r = await call(suite.server, 'GET', '/api/v1/namespaces/default');
    assert.deepEqual(r.json().metadata.managedFields.map((e: { manager: string; fieldsV1: unknown }) => ({ manager: e.manager, fieldsV1: e.fieldsV1 })), [{ manager: 'kube-apiserver', fieldsV1: LABEL_FIELDS }]);
  });
});

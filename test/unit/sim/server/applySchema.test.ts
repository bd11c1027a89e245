// Server-side apply reads the applied configuration against the kind's schema: a field a built-in
// type does not declare fails the apply whatever fieldValidation says, with structured-merge-diff's
// message (kube-apiserver v1.28 answers it as a 500 without a reason).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const APPLY = 'application/apply-patch+yaml';

describe('server-side apply of undeclared fields', () => {
  it('fails for a field the type does not declare, in the main resource and in /status', async () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'applied' } };
    const created = await call(suite.server, 'PATCH', '/api/v1/nodes/applied?fieldManager=test', { body: node, contentType: APPLY });
    assert.ok(created.status < 300, created.body);
    const status = await call(suite.server, 'PATCH', '/api/v1/nodes/applied/status?fieldManager=test', { body: { ...node, status: { invalidStatusField: 'x' } }, contentType: APPLY });
    assert.equal(status.status, 500);
    assert.deepEqual(status.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
      message: 'failed to create typed patch object (/applied; /v1, Kind=Node): .status.invalidStatusField: field not declared in schema',
    });
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { a: 'b' }, extra: true };
    const ignored = await call(suite.server, 'PATCH', '/api/v1/namespaces/default/configmaps/applied?fieldManager=test&fieldValidation=Ignore', { body: cm, contentType: APPLY });
    assert.equal(ignored.status, 500);
    assert.equal(ignored.json().message, 'failed to create typed patch object (default/applied; /v1, Kind=ConfigMap): .extra: field not declared in schema');
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps/applied')).status, 404);
  });
});

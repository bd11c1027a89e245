// CertificateSigningRequests over HTTP: served cluster-scoped in certificates.k8s.io/v1 with the
// /approval and /status subresources, validated as kube-apiserver validates them, approved through
// /approval by update or patch, listed with `kubectl get csr`'s columns.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

/** `openssl req -new -newkey ec … -subj /CN=alice/O=dev`. */
const PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHZMIGAAgEAMB4xDjAMBgNVBAMMBWFsaWNlMQwwCgYDVQQKDANkZXYwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAARJ3JJKfWKULxCeQCpzQnNbr0BVumZ9RtxWgfgV
jy/m+c07LvmaReU3xsGjCrrNoFn5kxEfFe9wLDryDsOAIrGhoAAwCgYIKoZIzj0E
AwIDSAAwRQIhAIET+qQo1vlYz/o/LqWsV5ws1MpULJruz8j/tvneYb3GAiBv3iuM
2Fp+WVYSH2/9Qz13/gt/XQS08jVFW6Aofcsg3g==
-----END CERTIFICATE REQUEST-----
`;

function csr(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(PEM).toString('base64'), signerName: 'example.com/signer', usages: ['client auth'], expirationSeconds: 86400, ...spec },
  };
}

async function create(name: string): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await call(suite.server, 'POST', CSRS, { body: csr(name) });
  assert.equal(r.status, 201, r.body);
  return r.json();
}

const APPROVED = { type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' };

describe('CertificateSigningRequests', () => {
  it('are in discovery, cluster-scoped, with approval and status subresources', async () => {
    const doc = (await call(suite.server, 'GET', '/apis/certificates.k8s.io/v1')).json();
    assert.deepEqual(doc.resources.map((r: { name: string }) => r.name), ['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status']);
    const main = doc.resources[0];
    assert.equal(main.namespaced, false);
    assert.deepEqual(main.shortNames, ['csr']);
    assert.deepEqual(doc.resources[1].verbs, ['get', 'patch', 'update']);
  });

  it('record the requester, start with an empty status, and keep their spec on update', async () => {
    const created = await create('kept');
    assert.equal(created.spec.username, 'controller-lab');
    assert.deepEqual(created.spec.groups, ['system:masters', 'system:authenticated']);
    assert.deepEqual(created.status, {});
    const changed = { ...created, metadata: { ...created.metadata, labels: { team: 'a' } }, spec: { ...created.spec, signerName: 'example.com/other' } };
    const updated = await call(suite.server, 'PUT', `${CSRS}/kept`, { body: changed });
    assert.equal(updated.status, 200, updated.body);
    assert.equal(updated.json().spec.signerName, 'example.com/signer');
    assert.deepEqual(updated.json().metadata.labels, { team: 'a' });
  });

  it('record whoever sent the create, not what the body claims: an impersonated user with its uid, groups and extras', async () => {
    const headers = { 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters', 'Impersonate-Uid': 'u-1', 'Impersonate-Extra-Scopes': 'view' };
    const body = csr('janes', { username: 'admin', groups: ['forged'], uid: 'x', extra: { a: ['b'] } });
    const r = await call(suite.server, 'POST', CSRS, { headers, body });
    assert.equal(r.status, 201, r.body);
    const { username, uid, groups, extra } = r.json().spec;
    assert.deepEqual({ username, uid, groups, extra }, { username: 'jane', uid: 'u-1', groups: ['system:masters', 'system:authenticated'], extra: { scopes: ['view'] } });
  });

  it('need a PEM certificate request, usages and a qualified signerName (422 with the API server\'s causes)', async () => {
    const r = await call(suite.server, 'POST', CSRS, { body: { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'empty' }, spec: {} } });
    assert.equal(r.status, 422);
    assert.equal(r.json().message,
      'CertificateSigningRequest.certificates.k8s.io "empty" is invalid: [spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST, spec.usages: Required value, spec.signerName: Required value]');
    const badSigner = await call(suite.server, 'POST', CSRS, { body: csr('bad-signer', { signerName: 'nodomain' }) });
    assert.equal(badSigner.status, 422);
    assert.equal(badSigner.json().details.causes[0].message, 'Invalid value: "nodomain": must be a fully qualified domain and path of the form \'example.com/signer-name\'');
    const short = await call(suite.server, 'POST', CSRS, { body: csr('short', { expirationSeconds: 60 }) });
    assert.equal(short.status, 422);
    assert.equal(short.json().details.causes[0].field, 'spec.expirationSeconds');
  });

  it('are approved through /approval with an update: only the conditions change, stamped with the time', async () => {
    const created = await create('by-update');
    const body = { ...created, spec: { ...created.spec, usages: ['server auth'] }, status: { conditions: [APPROVED], certificate: 'Zm9v' } };
    const r = await call(suite.server, 'PUT', `${CSRS}/by-update/approval`, { body });
    assert.equal(r.status, 200, r.body);
    const stored = (await call(suite.server, 'GET', `${CSRS}/by-update`)).json();
    assert.deepEqual(stored.status, { conditions: [{ ...APPROVED, lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] });
    assert.deepEqual(stored.spec.usages, ['client auth']);
    assert.equal((await call(suite.server, 'GET', `${CSRS}/by-update/approval`)).json().status.conditions[0].type, 'Approved');
  });

  it('are approved through /approval with a merge patch; an approval cannot be taken back, nor be both Approved and Denied', async () => {
    await create('by-patch');
    const r = await call(suite.server, 'PATCH', `${CSRS}/by-patch/approval`, { body: { status: { conditions: [APPROVED] } }, contentType: 'application/merge-patch+json' });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().status.conditions[0].type, 'Approved');
    const removed = await call(suite.server, 'PATCH', `${CSRS}/by-patch/approval`, { body: { status: { conditions: [] } }, contentType: 'application/merge-patch+json' });
    assert.equal(removed.status, 422);
    assert.match(removed.json().message, /status\.conditions: Forbidden: updates may not remove a condition of type "Approved"/);
    const both = await call(suite.server, 'PATCH', `${CSRS}/by-patch/approval`, { body: { status: { conditions: [APPROVED, { type: 'Denied', status: 'True' }] } }, contentType: 'application/merge-patch+json' });
    assert.equal(both.status, 422);
    assert.match(both.json().message, /Approved and Denied conditions are mutually exclusive/);
  });

  it('keep the annotations an /approval patch brings, as the approver records them there', async () => {
    const created = await create('annotated');
    const r = await call(suite.server, 'PATCH', `${CSRS}/annotated/approval`, {
      body: { metadata: { annotations: { patchedapproval: 'true' }, uid: 'not-the-uid' }, status: { conditions: [APPROVED] } }, contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().metadata.annotations?.patchedapproval, 'true');
    assert.equal(r.json().metadata.uid, created.metadata.uid);
  });

  it('take the certificate through /status, which keeps the stored approvals in the places it gives them and cannot add or remove one', async () => {
    await create('signed');
    assert.equal((await call(suite.server, 'PATCH', `${CSRS}/signed/approval`, { body: { status: { conditions: [APPROVED] } }, contentType: 'application/merge-patch+json' })).status, 200);
    const failed = { type: 'Failed', status: 'True', reason: 'SignerError' };
    const changed = await call(suite.server, 'PATCH', `${CSRS}/signed/status`, { body: { status: { conditions: [failed, { type: 'Denied', status: 'True' }] } }, contentType: 'application/merge-patch+json' });
    assert.equal(changed.status, 422);
    assert.deepEqual(changed.json().details.causes.map((c: { message: string }) => c.message),
      ['Forbidden: updates may not remove a condition of type "Approved"', 'Forbidden: updates may not add a condition of type "Denied"']);
    const r = await call(suite.server, 'PATCH', `${CSRS}/signed/status`, {
      body: { status: { certificate: 'Zm9v', conditions: [{ ...APPROVED, reason: 'Rewritten' }, failed] } }, contentType: 'application/merge-patch+json',
    });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().status.certificate, 'Zm9v');
    assert.deepEqual(r.json().status.conditions.map((c: { type: string; reason: string }) => [c.type, c.reason]), [['Approved', APPROVED.reason], ['Failed', 'SignerError']]);
    assert.equal(r.json().status.conditions[1].lastUpdateTime, '2026-01-01T00:00:00Z', 'times left out are filled in');
  });

  it('list with kubectl get csr\'s columns: signer, requestor, requested duration, condition', async () => {
    const table = (await call(suite.server, 'GET', `${CSRS}?fieldSelector=metadata.name%3Dby-patch`, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).json();
    assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
    assert.deepEqual(table.rows[0].cells.slice(2), ['example.com/signer', 'controller-lab', '24h', 'Approved']);
  });
});

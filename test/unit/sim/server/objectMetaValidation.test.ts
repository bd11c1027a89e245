import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// The metadata every kind's validation checks (ValidateObjectMeta), answered as kube-apiserver
// v1.28.4 answers: the messages below are the ones it gave for the same requests.

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';
const UID = '11111111-2222-3333-4444-555555555555';
const create = (metadata: Record<string, unknown>) => call(suite.server, 'POST', CMS, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata } });
const owner = (o: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: UID, ...o });

describe('metadata validation', () => {
  it('refuses a negative generation, and keeps a ConfigMap\'s own generation as written', async () => {
    const negative = await create({ name: 'gen-neg', generation: -5 });
    assert.equal(negative.status, 422);
    assert.equal(negative.json().message, 'ConfigMap "gen-neg" is invalid: metadata.generation: Invalid value: -5: must be greater than or equal to 0');
    const kept = await create({ name: 'gen-kept', generation: 1000 });
    assert.equal(kept.status, 201, kept.body);
    assert.equal(kept.json().metadata.generation, 1000);
    // An update keeps the stored generation whatever the body says.
    const patched = await call(suite.server, 'PATCH', `${CMS}/gen-kept`, { body: { metadata: { generation: 5 }, data: { a: 'b' } }, contentType: 'application/merge-patch+json' });
    assert.equal(patched.json().metadata.generation, 1000);
  });

  it('refuses finalizers that are not qualified names, bare names other than Kubernetes\' own, and orphan with foregroundDeletion', async () => {
    const bare = await create({ name: 'fin-bare', finalizers: ['bad'] });
    assert.equal(bare.status, 422);
    assert.equal(bare.json().message, 'ConfigMap "fin-bare" is invalid: metadata.finalizers[0]: Invalid value: "bad": name is neither a standard finalizer name nor is it fully qualified');
    const long = await create({ name: 'fin-long', finalizers: [`example.com/${'a'.repeat(64)}`] });
    assert.equal(long.json().message, `ConfigMap "fin-long" is invalid: metadata.finalizers: Invalid value: "example.com/${'a'.repeat(64)}": name part must be no more than 63 characters`);
    const both = await create({ name: 'fin-both', finalizers: ['orphan', 'foregroundDeletion'] });
    assert.equal(both.json().message, 'ConfigMap "fin-both" is invalid: metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set');
    for (const f of ['kubernetes', 'orphan', 'foregroundDeletion', 'example.com/f']) assert.equal((await create({ name: `fin-ok-${f.replace(/[^a-z]/gi, '').toLowerCase()}`, finalizers: [f] })).status, 201, f);
    // An update is checked as a create is.
    const patched = await call(suite.server, 'PATCH', `${CMS}/gen-kept`, { body: { metadata: { finalizers: ['bad'] } }, contentType: 'application/merge-patch+json' });
    assert.equal(patched.status, 422);
    assert.match(patched.json().message, /metadata\.finalizers\[0\]: Invalid value: "bad": name is neither/);
  });

  it('refuses owner references missing their apiVersion, kind, name or uid, and Events as owners', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ uid: '' }, 'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty'],
      [{ apiVersion: '' }, 'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty'],
      [{ apiVersion: 'a/b/c' }, 'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty'],
      [{ kind: '' }, 'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty'],
      [{ name: '' }, 'metadata.ownerReferences.name: Invalid value: "": name must not be empty'],
      [{ kind: 'Event', name: 'x', uid: 'u' }, 'metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"x", UID:"u", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner'],
    ];
    for (const [i, [ref, message]] of cases.entries()) {
      const r = await create({ name: `own-${i}`, ownerReferences: [owner(ref)] });
      assert.equal(r.status, 422, message);
      assert.equal(r.json().message, `ConfigMap "own-${i}" is invalid: ${message}`);
    }
    const two = await create({ name: 'own-two', ownerReferences: [owner({ controller: true }), owner({ name: 'p', uid: `${UID.slice(0, -1)}6`, controller: true })] });
    assert.equal(two.status, 422);
    assert.match(two.json().message, /Only one reference can have Controller set to true\. Found "true" in references for ConfigMap\/o and ConfigMap\/p$/);
  });

  it('drops an owner reference written twice, with kube-apiserver\'s warning naming each dropped uid', async () => {
    const a = { apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: 'aaaa' };
    const sameUidOtherName = { ...a, name: 'a2' };
    const b = { apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: 'bbbb' };
    const created = await create({ name: 'dup-owners', ownerReferences: [a, b, sameUidOtherName, b, a] });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().metadata.ownerReferences, [a, b, sameUidOtherName]);
    assert.equal(created.headers.warning, '299 - ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: bbbb, aaaa"');
    const patched = await call(suite.server, 'PATCH', `${CMS}/dup-owners`, { body: { metadata: { ownerReferences: [b, b] } }, contentType: 'application/merge-patch+json' });
    assert.deepEqual(patched.json().metadata.ownerReferences, [b]);
    assert.equal(patched.headers.warning, '299 - ".metadata.ownerReferences contains duplicate entries after mutating admission happens; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: bbbb"');
  });

  it('checks generateName as a prefix, makes names of at most 63 characters, and drops selfLink', async () => {
    const bad = await create({ generateName: 'Bad-' });
    assert.equal(bad.status, 422);
    assert.equal(bad.json().details.causes[0].field, 'metadata.generateName');
    assert.match(bad.json().details.causes[0].message, /^Invalid value: "Bad-": a lowercase RFC 1123 subdomain/);
    const long = await create({ generateName: 'a'.repeat(100) });
    assert.equal(long.status, 201, long.body);
    assert.equal(long.json().metadata.name.length, 63);
    const linked = await create({ name: 'linked', selfLink: '/x' });
    assert.equal(linked.json().metadata.selfLink, undefined);
  });

  it('words a label value that is too long as its length, not its pattern', async () => {
    const r = await create({ name: 'label-long', labels: { a: 'b'.repeat(64) } });
    assert.equal(r.json().message, `ConfigMap "label-long" is invalid: metadata.labels: Invalid value: "${'b'.repeat(64)}": must be no more than 63 characters`);
  });
});

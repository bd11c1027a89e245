import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// A dry-run delete answers what the delete would leave, as kube-apiserver v1.28.4 answered it: an
// object with finalizers marked for deletion (its generation moved on where it has one), a
// namespace Terminating (with no grace period: a namespace's deletion has none), and nothing stored.

const suite = suiteServer();
const CMS = '/api/v1/namespaces/default/configmaps';
const labels = { app: 'dry' };

describe('dry-run deletion', () => {
  it('answers an object with finalizers marked for deletion, and leaves it as it was', async () => {
    assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name: 'held', finalizers: ['example.com/x'] } } })).status, 201);
    const r = await call(suite.server, 'DELETE', `${CMS}/held?dryRun=All`);
    assert.equal(r.status, 200, r.body);
    assert.ok(r.json().metadata.deletionTimestamp, r.body);
    assert.equal(r.json().metadata.deletionGracePeriodSeconds, 0);
    assert.equal((await call(suite.server, 'GET', `${CMS}/held`)).json().metadata.deletionTimestamp, undefined);
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    const spec = { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } };
    assert.equal((await call(suite.server, 'POST', deployments, { body: { metadata: { name: 'held', finalizers: ['example.com/x'] }, spec } })).status, 201);
    const d = await call(suite.server, 'DELETE', `${deployments}/held?dryRun=All`);
    assert.equal(d.json().metadata.generation, 2);
    assert.equal((await call(suite.server, 'GET', `${deployments}/held`)).json().metadata.generation, 1);
  });

  it('is not one when the request has a body: kube-apiserver reads the options from the body alone, not the query', async () => {
    for (const name of ['query-only', 'with-body']) assert.equal((await call(suite.server, 'POST', CMS, { body: { metadata: { name } } })).status, 201);
    assert.equal((await call(suite.server, 'DELETE', `${CMS}/query-only?dryRun=All`)).status, 200);
    assert.equal((await call(suite.server, 'GET', `${CMS}/query-only`)).status, 200, 'a dry run: still there');
    const withBody = await call(suite.server, 'DELETE', `${CMS}/with-body?dryRun=All`, { body: { propagationPolicy: 'Background' } });
    assert.equal(withBody.status, 200, withBody.body);
    assert.equal((await call(suite.server, 'GET', `${CMS}/with-body`)).status, 404, 'the body had no dryRun: deleted, as kube-apiserver v1.28.4 deleted it');
  });

  it('answers a namespace Terminating, with no grace period, dry run or not', async () => {
    assert.equal((await call(suite.server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'going' } } })).status, 201);
    const dry = await call(suite.server, 'DELETE', '/api/v1/namespaces/going?dryRun=All');
    assert.equal(dry.json().status.phase, 'Terminating');
    assert.ok(dry.json().metadata.deletionTimestamp);
    assert.equal('deletionGracePeriodSeconds' in dry.json().metadata, false, dry.body);
    assert.equal((await call(suite.server, 'GET', '/api/v1/namespaces/going')).json().status.phase, 'Active');
    const real = await call(suite.server, 'DELETE', '/api/v1/namespaces/going');
    assert.equal('deletionGracePeriodSeconds' in real.json().metadata, false, real.body);
  });
});

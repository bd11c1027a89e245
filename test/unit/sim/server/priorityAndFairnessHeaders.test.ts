// API Priority and Fairness as a client sees it (the e2e "API priority and fairness should ensure
// that requests can be classified"): each answer names the FlowSchema and priority level its
// request was classified into by UID, and /metrics gives every level's nominal concurrency.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const FC = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';
const as = (user: string) => ({ 'Impersonate-User': user, 'Impersonate-Group': 'system:authenticated' });

describe('API Priority and Fairness classification', () => {
  const uids = { schema: '', level: '' };
  before(async () => {
    const level = await call(suite.server, 'POST', `${FC}/prioritylevelconfigurations`, { body: { metadata: { name: 'pf-level' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } } } });
    assert.equal(level.status, 201, level.body);
    const schema = await call(suite.server, 'POST', `${FC}/flowschemas`, {
      body: {
        metadata: { name: 'pf-schema' },
        spec: { priorityLevelConfiguration: { name: 'pf-level' }, matchingPrecedence: 1000, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'noxu' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] },
      },
    });
    assert.equal(schema.status, 201, schema.body);
    uids.schema = schema.json().metadata.uid;
    uids.level = level.json().metadata.uid;
  });

  it('a matching user\'s request is answered with the UIDs of the schema and level made for it', async () => {
    const r = await call(suite.server, 'GET', '/version', { headers: as('noxu') });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], uids.schema);
    assert.equal(r.headers['x-kubernetes-pf-prioritylevel-uid'], uids.level);
  });

  it('another user\'s falls to a default schema; the admin\'s to exempt', async () => {
    const other = await call(suite.server, 'GET', '/version', { headers: as('foo') });
    const globalDefault = (await call(suite.server, 'GET', `${FC}/flowschemas/global-default`)).json().metadata.uid;
    assert.equal(other.headers['x-kubernetes-pf-flowschema-uid'], globalDefault);
    const admin = await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps');
    const exempt = (await call(suite.server, 'GET', `${FC}/flowschemas/exempt`)).json().metadata.uid;
    assert.equal(admin.headers['x-kubernetes-pf-flowschema-uid'], exempt);
  });

  it('/metrics gives each level\'s nominal concurrency in Prometheus\' text format', async () => {
    const r = await call(suite.server, 'GET', '/metrics');
    assert.equal(r.status, 200);
    assert.match(r.body, /^apiserver_flowcontrol_nominal_limit_seats\{priority_level="pf-level"\} [1-9]\d*$/m);
    assert.match(r.body, /^apiserver_flowcontrol_nominal_limit_seats\{priority_level="exempt"\} 0$/m);
  });
});

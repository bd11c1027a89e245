// FlowSchemas and PriorityLevelConfigurations over HTTP as a v1.28 kube-apiserver serves them
// (flowcontrol.apiserver.k8s.io/v1beta3): defaults, the rules a user meets, and kubectl's columns.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const GV = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const API_VERSION = 'flowcontrol.apiserver.k8s.io/v1beta3';

describe('PriorityLevelConfiguration', () => {
  it('is served by the group\'s preferred version', async () => {
    const group = (await call(suite.server, 'GET', '/apis/flowcontrol.apiserver.k8s.io')).json();
    assert.equal(group.preferredVersion.version, 'v1beta3');
    assert.deepEqual(group.versions.map((v: { version: string }) => v.version), ['v1beta3', 'v1beta2']);
    const names = (await call(suite.server, 'GET', GV)).json().resources.map((r: { name: string }) => r.name);
    assert.deepEqual(names, ['flowschemas', 'flowschemas/status', 'prioritylevelconfigurations', 'prioritylevelconfigurations/status']);
  });

  it('fills in the shares and the queuing defaults, and prints them as kubectl get does', async () => {
    const body = { apiVersion: API_VERSION, kind: 'PriorityLevelConfiguration', metadata: { name: 'batch' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 16 } } } } };
    const created = await call(suite.server, 'POST', `${GV}/prioritylevelconfigurations`, { body });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().spec.limited, { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 8, queueLengthLimit: 50 } } });
    const table = (await call(suite.server, 'GET', `${GV}/prioritylevelconfigurations/batch`, { accept: TABLE })).json();
    assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
    assert.deepEqual(table.rows[0].cells.slice(0, 6), ['batch', 'Limited', 30, 16, 8, 50]);
  });

  it('refuses Exempt for any level but exempt, and a hand larger than the queues', async () => {
    const exempt = await call(suite.server, 'POST', `${GV}/prioritylevelconfigurations`, { body: { apiVersion: API_VERSION, kind: 'PriorityLevelConfiguration', metadata: { name: 'mine' }, spec: { type: 'Exempt' } } });
    assert.deepEqual(causes(exempt), [['FieldValueInvalid', 'spec.type', 'Invalid value: "Exempt": type must be \'Exempt\' if and only if name is \'exempt\'']]);
    const hand = await call(suite.server, 'POST', `${GV}/prioritylevelconfigurations`, { body: { apiVersion: API_VERSION, kind: 'PriorityLevelConfiguration', metadata: { name: 'wide' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 6 } } } } } });
    assert.deepEqual(causes(hand), [['FieldValueInvalid', 'spec.limited.limitResponse.queuing.handSize', 'Invalid value: 6: should not be greater than queues (4)']]);
  });
});

describe('flowcontrol.apiserver.k8s.io/v1beta2', () => {
  it('serves the same objects, a limited level\'s shares named assuredConcurrencyShares, with the deprecation warning', async () => {
    const body = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kind: 'PriorityLevelConfiguration', metadata: { name: 'old-style' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } };
    const created = await call(suite.server, 'POST', '/apis/flowcontrol.apiserver.k8s.io/v1beta2/prioritylevelconfigurations', { body });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.headers['warning'], '299 - "flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration"');
    assert.equal(created.json().apiVersion, 'flowcontrol.apiserver.k8s.io/v1beta2');
    assert.equal(created.json().spec.limited.assuredConcurrencyShares, 5);
    const v1beta3 = (await call(suite.server, 'GET', `${GV}/prioritylevelconfigurations/old-style`)).json();
    assert.equal(v1beta3.spec.limited.nominalConcurrencyShares, 5);
    assert.equal(v1beta3.spec.limited.assuredConcurrencyShares, undefined);
    const list = await call(suite.server, 'GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas');
    assert.equal(list.status, 200, list.body);
    assert.equal(list.json().kind, 'FlowSchemaList');
  });
});

describe('FlowSchema', () => {
  it('takes matchingPrecedence 1000 by default and prints as kubectl get does', async () => {
    const body = {
      apiVersion: API_VERSION, kind: 'FlowSchema', metadata: { name: 'batch-jobs' },
      spec: { priorityLevelConfiguration: { name: 'batch' }, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'batch-users' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }] },
    };
    const created = await call(suite.server, 'POST', `${GV}/flowschemas`, { body });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().spec.matchingPrecedence, 1000);
    assert.equal(created.json().metadata.generation, 1);
    const table = (await call(suite.server, 'GET', `${GV}/flowschemas/batch-jobs`, { accept: TABLE })).json();
    assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
    const cells = table.rows[0].cells;
    // The level named batch (made above) exists: the APF controller's Dangling condition says so (MissingPL False).
    assert.deepEqual([cells[0], cells[1], cells[2], cells[3], cells[5]], ['batch-jobs', 'batch', 1000, 'ByUser', 'False']);
  });

  it('refuses a schema without a priority level, with precedence 1, or a subject of an unknown kind', async () => {
    const body = { apiVersion: API_VERSION, kind: 'FlowSchema', metadata: { name: 'bad' }, spec: { matchingPrecedence: 1, rules: [{ subjects: [{ kind: 'Robot' }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true }] }] } };
    const r = await call(suite.server, 'POST', `${GV}/flowschemas`, { body });
    assert.deepEqual(causes(r).map(([reason, field]) => [reason, field]), [
      ['FieldValueInvalid', 'spec.matchingPrecedence'],
      ['FieldValueRequired', 'spec.priorityLevelConfiguration.name'],
      ['FieldValueNotSupported', 'spec.rules[0].subjects[0].kind'],
    ]);
  });
});

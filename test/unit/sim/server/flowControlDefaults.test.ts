// API Priority and Fairness' default configuration, as kube-apiserver v1.28 creates it at start:
// `kubectl get flowschemas,prioritylevelconfigurations` lists the same objects, each FlowSchema
// with the Dangling=False condition the APF controller applies, written by its managers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const FC = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';
type Named = { metadata: { name: string } };

describe('API Priority and Fairness defaults', () => {
  it('the mandatory and suggested priority levels and flow schemas exist', async () => {
    const levels = (await call(suite.server, 'GET', `${FC}/prioritylevelconfigurations`)).json().items as Named[];
    assert.deepEqual(levels.map((l) => l.metadata.name).sort(), ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
    const schemas = (await call(suite.server, 'GET', `${FC}/flowschemas`)).json().items as Named[];
    assert.deepEqual(schemas.map((s) => s.metadata.name).sort(), [
      'catch-all', 'endpoint-controller', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts',
      'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes', 'workload-leader-election',
    ]);
  });

  it('a flow schema as the APF controller leaves it', async () => {
    const fs = (await call(suite.server, 'GET', `${FC}/flowschemas/service-accounts`)).json();
    assert.equal(fs.metadata.annotations['apf.kubernetes.io/autoupdate-spec'], 'true');
    assert.deepEqual(fs.spec.priorityLevelConfiguration, { name: 'workload-low' });
    assert.equal(fs.spec.matchingPrecedence, 9000);
    const { lastTransitionTime, ...condition } = fs.status.conditions[0];
    assert.ok(lastTransitionTime);
    assert.deepEqual(condition, { type: 'Dangling', status: 'False', reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "workload-low" and it exists' });
    assert.deepEqual(fs.metadata.managedFields.map((m: { manager: string; operation: string; subresource?: string }) => [m.manager, m.operation, m.subresource]).sort(), [
      ['api-priority-and-fairness-config-consumer-v1', 'Apply', 'status'], ['api-priority-and-fairness-config-producer-v1', 'Update', undefined],
    ]);
    const level = (await call(suite.server, 'GET', `${FC}/prioritylevelconfigurations/workload-low`)).json();
    assert.deepEqual(level.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 100, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } }, lendablePercent: 90 } });
  });

  it('managedFields own a priority level reference without `.` (a Go value, not a pointer), as kube-apiserver records it', async () => {
    type Entry = { manager: string; fieldsV1: { 'f:spec': Record<string, Record<string, unknown>> } };
    const producer = ((await call(suite.server, 'GET', `${FC}/flowschemas/exempt`)).json().metadata.managedFields as Entry[])
      .find((m) => m.manager === 'api-priority-and-fairness-config-producer-v1');
    assert.deepEqual(producer?.fieldsV1['f:spec']['f:priorityLevelConfiguration'], { 'f:name': {} });
    const level = await call(suite.server, 'POST', `${FC}/prioritylevelconfigurations`, {
      body: { metadata: { name: 'mf-level' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } },
    });
    assert.equal(level.status, 201, level.body);
    const limited = (level.json().metadata.managedFields as Entry[])[0]?.fieldsV1['f:spec']['f:limited'];
    assert.deepEqual(limited?.['f:limitResponse'], { '.': {}, 'f:type': {} }, 'a value under a pointer the zero spec lacks: `.` as kube-apiserver records it');
    assert.deepEqual(limited?.['.'], {});
    const schema = await call(suite.server, 'POST', `${FC}/flowschemas`, {
      body: { metadata: { name: 'mf-schema' }, spec: { priorityLevelConfiguration: { name: 'mf-level' }, distinguisherMethod: { type: 'ByUser' } } },
    });
    assert.equal(schema.status, 201, schema.body);
    const spec = (schema.json().metadata.managedFields as Entry[])[0]?.fieldsV1['f:spec'];
    assert.deepEqual(spec?.['f:priorityLevelConfiguration'], { 'f:name': {} });
    assert.deepEqual(spec?.['f:distinguisherMethod'], { '.': {}, 'f:type': {} });
  });
});

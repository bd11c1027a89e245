// The Dangling condition kube-apiserver's APF configuration controller keeps on every FlowSchema,
// not only the ones it made at start: False while the priority level it names exists, True when
// it does not, and updated when that level comes or goes (the e2e APF spec waits for False).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

const suite = suiteServer();
const FC = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';

interface Condition { type: string; status: string; reason: string; message: string }
async function dangling(name: string): Promise<Condition | undefined> {
  const schema = (await call(suite.server, 'GET', `${FC}/flowschemas/${name}`)).json();
  return (schema.status?.conditions as Condition[] | undefined)?.find((c) => c.type === 'Dangling');
}
const schemaFor = (name: string, level: string) => ({
  metadata: { name },
  spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: 500, rules: [{ subjects: [{ kind: 'User', user: { name: 'noxu' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] },
});
const levelNamed = (name: string) => ({ metadata: { name }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } } });

describe('a FlowSchema\'s Dangling condition', () => {
  it('is False (Found) when its priority level exists, applied by the APF consumer', async () => {
    assert.equal((await call(suite.server, 'POST', `${FC}/prioritylevelconfigurations`, { body: levelNamed('dl-level') })).status, 201);
    assert.equal((await call(suite.server, 'POST', `${FC}/flowschemas`, { body: schemaFor('dl-found', 'dl-level') })).status, 201);
    const condition = await dangling('dl-found');
    assert.deepEqual([condition?.status, condition?.reason, condition?.message], ['False', 'Found', 'This FlowSchema references the PriorityLevelConfiguration object named "dl-level" and it exists']);
    const managers = (await call(suite.server, 'GET', `${FC}/flowschemas/dl-found`)).json().metadata.managedFields.map((m: { manager: string; subresource?: string }) => `${m.manager}/${m.subresource ?? ''}`);
    assert.ok(managers.includes('api-priority-and-fairness-config-consumer-v1/status'), managers.join(' '));
  });

  it('is True (NotFound) while the level is missing, and False once it is made', async () => {
    assert.equal((await call(suite.server, 'POST', `${FC}/flowschemas`, { body: schemaFor('dl-missing', 'dl-later') })).status, 201);
    const missing = await dangling('dl-missing');
    assert.deepEqual([missing?.status, missing?.reason, missing?.message], ['True', 'NotFound', 'This FlowSchema references the PriorityLevelConfiguration object named "dl-later" but there is no such object']);
    assert.equal((await call(suite.server, 'POST', `${FC}/prioritylevelconfigurations`, { body: levelNamed('dl-later') })).status, 201);
    assert.equal((await dangling('dl-missing'))?.status, 'False');
    assert.equal((await call(suite.server, 'DELETE', `${FC}/prioritylevelconfigurations/dl-later`)).status, 200);
    assert.equal((await dangling('dl-missing'))?.status, 'True');
  });
});

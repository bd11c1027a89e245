// PodDisruptionBudgets over HTTP as kube-apiserver v1.28 checks them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const pdb = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } });

describe('PodDisruptionBudget validation', () => {
  it('minAvailable and maxUnavailable cannot be both set', async () => {
    const r = await call(suite.server, 'POST', PDBS, { body: pdb('both', { minAvailable: 1, maxUnavailable: 1 }) });
    assert.deepEqual(causes(r).map(([reason, field]) => [reason, field]), [['FieldValueInvalid', 'spec']]);
    assert.match(r.json().details.causes[0].message, /: minAvailable and maxUnavailable cannot be both set$/);
  });

  it('a negative count, a percentage over 100% and a malformed one are refused with the IntOrString printed as Go does', async () => {
    assert.deepEqual(causes(await call(suite.server, 'POST', PDBS, { body: pdb('negative', { minAvailable: -1 }) })), [
      ['FieldValueInvalid', 'spec.minAvailable', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
    assert.deepEqual(causes(await call(suite.server, 'POST', PDBS, { body: pdb('over', { maxUnavailable: '150%' }) })), [
      ['FieldValueInvalid', 'spec.maxUnavailable', 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%'],
    ]);
    assert.deepEqual(causes(await call(suite.server, 'POST', PDBS, { body: pdb('half', { minAvailable: 'half' }) })), [
      ['FieldValueInvalid', 'spec.minAvailable', 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be a numeric string followed by an ending \'%\' (e.g. \'1%\',  or \'93%\', regex used for validation is \'[0-9]+%\')'],
    ]);
  });

  it('an unknown unhealthy-pod eviction policy and a bad selector operator are refused; a valid budget is stored', async () => {
    const r = await call(suite.server, 'POST', PDBS, {
      body: pdb('policy', { minAvailable: '50%', unhealthyPodEvictionPolicy: 'Never', selector: { matchExpressions: [{ key: 'app', operator: 'Like', values: ['web'] }] } }),
    });
    assert.deepEqual(causes(r), [
      ['FieldValueInvalid', 'spec.selector.matchExpressions[0].operator', 'Invalid value: "Like": not a valid selector operator'],
      ['FieldValueNotSupported', 'spec.unhealthyPodEvictionPolicy', 'Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"'],
    ]);
    const ok = await call(suite.server, 'POST', PDBS, { body: pdb('ok', { minAvailable: '50%', unhealthyPodEvictionPolicy: 'AlwaysAllow' }) });
    assert.equal(ok.status, 201, ok.body);
  });
});

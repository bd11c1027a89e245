// A CRD's x-kubernetes-validations are compiled when it is created: a rule that does not compile,
// reads a field the schema does not declare, is not a bool, reads oldSelf where no old value can
// be found, or could loop too long is refused with a 422 naming it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { widgetCrd } from './ruleFixtures.ts';

const sim = suiteServer();
const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const SPEC = 'spec.versions[0].schema.openAPIV3Schema.properties[spec]';

function crdWithSpecRules(rules: unknown[], specExtras: Record<string, unknown> = {}): Record<string, unknown> {
  const crd = widgetCrd(specExtras) as unknown as { spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } } }[] } };
  crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = rules;
  return crd as unknown as Record<string, unknown>;
}

async function refusal(crd: Record<string, unknown>): Promise<string[]> {
  const r = await call(sim.server, 'POST', CRD_PATH, { body: crd });
  assert.equal(r.status, 422, r.body);
  return r.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
}

describe('CRD validation rules checked at CRD creation', () => {
  it('refuses a rule with a syntax error, naming the rule and where it breaks', async () => {
    const causes = await refusal(crdWithSpecRules([{ rule: 'self.minReplicas <=' }]));
    assert.deepEqual(causes, [
      `${SPEC}.x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.minReplicas <=", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:""}: compilation failed: ERROR: <input>:1:20: Syntax error: Unexpected token: EOF\n | self.minReplicas <=\n | ...................^`,
    ]);
    assert.equal((await call(sim.server, 'GET', `${CRD_PATH}/widgets.rules.example.com`)).status, 404);
  });

  it('refuses rules reading undeclared fields or variables, comparing a field with a literal of another type, or not answering a bool', async () => {
    const causes = await refusal(crdWithSpecRules([
      { rule: 'self.minReplica > 0' }, { rule: 'replicas > 0' }, { rule: 'self.minReplicas' }, { rule: 'self.maxReplicas > 0', messageExpression: 'self.maxReplicas' }, { rule: 'self.owner.name != ""' }, { rule: 'self.minReplicas == "3"' },
    ]));
    assert.equal(causes.length, 6, causes.join('\n'));
    assert.match(causes[0]!, /x-kubernetes-validations\[0\]\.rule: .*compilation failed: ERROR: <input>:1:5: undefined field 'minReplica'/);
    assert.match(causes[1]!, /x-kubernetes-validations\[1\]\.rule: .*compilation failed: ERROR: <input>:1:1: undeclared reference to 'replicas' \(in container ''\)/);
    assert.match(causes[2]!, /x-kubernetes-validations\[2\]\.rule: .*: cel expression must evaluate to a bool$/);
    assert.match(causes[3]!, /x-kubernetes-validations\[3\]\.messageExpression: Invalid value: .*: must evaluate to a string$/);
    assert.match(causes[4]!, /x-kubernetes-validations\[4\]\.rule: .*compilation failed: ERROR: <input>:1:11: type 'string' does not support field selection/);
    assert.match(causes[5]!, /x-kubernetes-validations\[5\]\.rule: .*compilation failed: ERROR: <input>:1:18: found no matching overload for '_==_' applied to '\(int, string\)'/);
  });

  it('refuses oldSelf on items of a list that is not list-type=map (no old item to compare with)', async () => {
    const causes = await refusal(crdWithSpecRules([], {
      steps: { type: 'array', items: { type: 'object', properties: { run: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self.run == oldSelf.run' }] } },
    }));
    assert.deepEqual(causes.map((c) => c.replace(/Invalid value: apiextensions\.ValidationRule\{[^}]*\}/, 'Invalid value: <rule>')), [
      `${SPEC}.properties[steps].items.x-kubernetes-validations[0].rule: Invalid value: <rule>: oldSelf cannot be used on the uncorrelatable portion of the schema within ${SPEC}.properties[steps].items`,
    ]);
  });

  it('refuses a nested loop over lists without maxItems as too costly, and accepts it with bounds', async () => {
    const rule = 'self.names.all(a, self.names.exists(b, a != b && a.startsWith(b)))';
    const unbounded = { names: { type: 'array', items: { type: 'string' } } };
    const causes = await refusal(crdWithSpecRules([{ rule }], unbounded));
    assert.deepEqual(causes, [
      `${SPEC}.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    ]);
    const bounded = { names: { type: 'array', maxItems: 100, items: { type: 'string' } } };
    const r = await call(sim.server, 'POST', CRD_PATH, { body: crdWithSpecRules([{ rule }], bounded) });
    assert.equal(r.status, 201, r.body);
    assert.equal((await call(sim.server, 'DELETE', `${CRD_PATH}/widgets.rules.example.com`)).status, 200);
  });

  it('refuses a default that breaks its schema\'s validation rules', async () => {
    const crd = widgetCrd({ limits: {
      type: 'object',
      default: { low: 5, high: 1 },
      properties: { low: { type: 'integer' }, high: { type: 'integer' } },
      'x-kubernetes-validations': [{ rule: 'self.low <= self.high', message: 'low must not exceed high' }],
    } });
    assert.deepEqual(await refusal(crd as unknown as Record<string, unknown>), [
      `${SPEC}.properties[limits].default: Invalid value: "object": low must not exceed high`,
    ]);
  });

  it('refuses malformed rules with a clear cause, never a server error', async () => {
    const causes = await refusal(crdWithSpecRules([{ rule: 3 }, 'self.x > 1', { rule: 'true', message: ['a'] }]));
    assert.deepEqual(causes, [
      `${SPEC}.x-kubernetes-validations[0].rule: Invalid value: 3: must be a string`,
      `${SPEC}.x-kubernetes-validations[1]: Invalid value: "self.x > 1": must be an object with a rule`,
      `${SPEC}.x-kubernetes-validations[2].message: Invalid value: ["a"]: must be a string`,
    ]);
    const notAList = crdWithSpecRules([]);
    (notAList as { spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } } }[] } }).spec.versions[0]!.schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = { rule: 'true' };
    assert.deepEqual(await refusal(notAList), [`${SPEC}.x-kubernetes-validations: Invalid value: {"rule":"true"}: must be a list of rules`]);
  });

  it('refuses an unknown reason and a message with a line break', async () => {
    const causes = await refusal(crdWithSpecRules([{ rule: 'true', reason: 'FieldValueWrong' }, { rule: 'true', message: 'two\nlines' }]));
    assert.deepEqual(causes, [
      `${SPEC}.x-kubernetes-validations[0].reason: Unsupported value: "FieldValueWrong": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${SPEC}.x-kubernetes-validations[1].message: Invalid value: "two\\nlines": message must not contain line breaks`,
    ]);
  });

  it('evaluates quantity rules: 1Gi, 1024Mi and 1073741824 are the same amount', async () => {
    const r = await call(sim.server, 'POST', CRD_PATH, { body: crdWithSpecRules([{ rule: "!has(self.owner) || quantity(self.owner).compareTo(quantity('1Gi')) >= 0", message: 'at least 1Gi' }]) });
    assert.equal(r.status, 201, r.body);
    const obj = (name: string, owner: string): Record<string, unknown> => ({ apiVersion: 'rules.example.com/v1', kind: 'Widget', metadata: { name }, spec: { owner, containers: [{ name: 'main', image: 'a:1' }] } });
    for (const [name, owner] of [['w-q1', '1024Mi'], ['w-q2', '1073741824'], ['w-q3', '2G']]) {
      const created = await call(sim.server, 'POST', '/apis/rules.example.com/v1/namespaces/default/widgets', { body: obj(name!, owner!) });
      assert.equal(created.status, 201, created.body);
    }
    const small = await call(sim.server, 'POST', '/apis/rules.example.com/v1/namespaces/default/widgets', { body: obj('w-q4', '1023Mi') });
    assert.equal(small.status, 422, small.body);
    assert.deepEqual(small.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), ['spec: Invalid value: "object": at least 1Gi']);
    const notAQuantity = await call(sim.server, 'POST', '/apis/rules.example.com/v1/namespaces/default/widgets', { body: obj('w-q5', 'lots') });
    assert.equal(notAQuantity.status, 422, notAQuantity.body);
    assert.match(notAQuantity.json().details.causes[0].message, /quantities must match the regular expression .* evaluating rule: at least 1Gi$/);
    assert.equal((await call(sim.server, 'DELETE', `${CRD_PATH}/widgets.rules.example.com`)).status, 200);
  });
});

// Validating and mutating webhook configurations over HTTP, as kube-apiserver v1.28 stores and
// refuses them: defaults filled in, and 422s naming the webhook's field with the server's words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { causes } from './causes.ts';
import { suiteServer } from '../server/suiteServer.ts';

const suite = suiteServer();
const VALIDATING = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const MUTATING = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';

type Hook = Record<string, unknown>;

const hook = (more: Hook = {}): Hook => ({
  name: 'pods.policy.example.com',
  clientConfig: { service: { namespace: 'policy', name: 'webhook' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...more,
});

const configuration = (kind: string, name: string, webhooks: Hook[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks });


describe('webhook configurations', () => {
  it('are stored with the defaults the API server fills in', async () => {
    const created = await call(suite.server, 'POST', MUTATING, { body: configuration('MutatingWebhookConfiguration', 'defaults', [hook()]) });
    assert.equal(created.status, 201, created.body);
    const stored = (await call(suite.server, 'GET', `${MUTATING}/defaults`)).json().webhooks[0];
    assert.deepEqual(
      { ...stored, clientConfig: undefined, rules: undefined },
      {
        ...hook(), clientConfig: undefined, rules: undefined,
        failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10, reinvocationPolicy: 'Never',
      },
    );
    assert.deepEqual(stored.clientConfig.service, { namespace: 'policy', name: 'webhook', port: 443 });
    assert.equal(stored.rules[0].scope, '*');
  });

  it('without sideEffects and admissionReviewVersions is a 422 naming both, as v1 requires them', async () => {
    const bare = hook();
    delete bare.sideEffects;
    delete bare.admissionReviewVersions;
    const r = await call(suite.server, 'POST', VALIDATING, { body: configuration('ValidatingWebhookConfiguration', 'bare', [bare]) });
    assert.deepEqual(causes(r), [
      ['FieldValueRequired', 'webhooks[0].sideEffects', 'Required value: must specify one of None, NoneOnDryRun'],
      ['FieldValueRequired', 'webhooks[0].admissionReviewVersions', 'Required value: must specify one of v1, v1beta1'],
    ]);
    assert.equal(r.json().message, 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "bare" is invalid: [webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1]');
    assert.equal((await call(suite.server, 'GET', `${VALIDATING}/bare`)).status, 404);
  });

  it('needs exactly one of url and service, and an https url with a host', async () => {
    const both = await call(suite.server, 'POST', VALIDATING, { body: configuration('ValidatingWebhookConfiguration', 'both', [hook({ clientConfig: { url: 'https://hooks.example.com/pods', service: { namespace: 'a', name: 'b' } } })]) });
    assert.deepEqual(causes(both), [['FieldValueRequired', 'webhooks[0].clientConfig', 'Required value: exactly one of url or service is required']]);
    const http = await call(suite.server, 'POST', VALIDATING, { body: configuration('ValidatingWebhookConfiguration', 'http', [hook({ clientConfig: { url: 'http://hooks.example.com/pods?x=1' } })]) });
    assert.deepEqual(causes(http), [
      ['FieldValueInvalid', 'webhooks[0].clientConfig.url', 'Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]'],
      ['FieldValueInvalid', 'webhooks[0].clientConfig.url', 'Invalid value: "x=1": query parameters are not permitted in the URL'],
    ]);
    const noName = await call(suite.server, 'POST', VALIDATING, { body: configuration('ValidatingWebhookConfiguration', 'noname', [hook({ clientConfig: { service: { namespace: 'policy', port: 70000 } } })]) });
    assert.deepEqual(causes(noName), [
      ['FieldValueRequired', 'webhooks[0].clientConfig.service.name', 'Required value: service name is required'],
      ['FieldValueInvalid', 'webhooks[0].clientConfig.service.port', 'Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive'],
    ]);
  });

  it('refuses unknown policies, a timeout over 30s, side effects, a short name and a name used twice', async () => {
    const r = await call(suite.server, 'POST', MUTATING, {
      body: configuration('MutatingWebhookConfiguration', 'enums', [
        hook({ failurePolicy: 'Retry', timeoutSeconds: 31, reinvocationPolicy: 'Always', sideEffects: 'Some' }),
        hook({ name: 'example.com' }),
        hook(),
      ]),
    });
    assert.deepEqual(causes(r), [
      ['FieldValueNotSupported', 'webhooks[0].failurePolicy', 'Unsupported value: "Retry": supported values: "Fail", "Ignore"'],
      ['FieldValueNotSupported', 'webhooks[0].sideEffects', 'Unsupported value: "Some": supported values: "None", "NoneOnDryRun"'],
      ['FieldValueInvalid', 'webhooks[0].timeoutSeconds', 'Invalid value: 31: the timeout value must be between 1 and 30 seconds'],
      ['FieldValueNotSupported', 'webhooks[0].reinvocationPolicy', 'Unsupported value: "Always": supported values: "IfNeeded", "Never"'],
      ['FieldValueInvalid', 'webhooks[1].name', 'Invalid value: "example.com": should be a domain with at least three segments separated by dots'],
      ['FieldValueDuplicate', 'webhooks[2].name', 'Duplicate value: "pods.policy.example.com"'],
    ]);
  });

  it('checks each rule: operations, groups, versions and resources are required, the scope is one of three', async () => {
    const r = await call(suite.server, 'POST', VALIDATING, {
      body: configuration('ValidatingWebhookConfiguration', 'rules', [hook({ rules: [{ operations: ['CREATE', 'PATCH'], scope: 'Everywhere' }] })]),
    });
    assert.deepEqual(causes(r), [
      ['FieldValueNotSupported', 'webhooks[0].rules[0].operations[1]', 'Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"'],
      ['FieldValueRequired', 'webhooks[0].rules[0].apiGroups', 'Required value'],
      ['FieldValueRequired', 'webhooks[0].rules[0].apiVersions', 'Required value'],
      ['FieldValueRequired', 'webhooks[0].rules[0].resources', 'Required value'],
      ['FieldValueNotSupported', 'webhooks[0].rules[0].scope', 'Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"'],
    ]);
  });

  it('an update is checked too: a stored configuration cannot lose its sideEffects', async () => {
    await call(suite.server, 'POST', VALIDATING, { body: configuration('ValidatingWebhookConfiguration', 'kept', [hook()]) });
    const stored = (await call(suite.server, 'GET', `${VALIDATING}/kept`)).json();
    delete stored.webhooks[0].sideEffects;
    const r = await call(suite.server, 'PUT', `${VALIDATING}/kept`, { body: stored });
    assert.deepEqual(causes(r), [['FieldValueRequired', 'webhooks[0].sideEffects', 'Required value: must specify one of None, NoneOnDryRun']]);
  });
});

describe('a strategic merge patch of a webhook configuration', () => {
  it('merges webhooks by name, as `kubectl apply` of an unchanged manifest relies on', async () => {
    await call(suite.server, 'POST', VALIDATING, { body: configuration('ValidatingWebhookConfiguration', 'patched', [hook()]) });
    const patch = { '$setElementOrder/webhooks': [{ name: 'pods.policy.example.com' }], webhooks: [{ name: 'pods.policy.example.com', timeoutSeconds: 5 }] };
    const r = await call(suite.server, 'PATCH', `${VALIDATING}/patched`, { body: patch, contentType: 'application/strategic-merge-patch+json' });
    assert.equal(r.status, 200, r.body);
    const webhook = r.json().webhooks[0];
    assert.deepEqual([webhook.timeoutSeconds, webhook.sideEffects, webhook.clientConfig.service.name], [5, 'None', 'webhook']);
  });
});

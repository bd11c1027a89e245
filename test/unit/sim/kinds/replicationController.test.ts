// ReplicationControllers over HTTP as kube-apiserver v1.28 checks them: a selector (a map of
// labels) that the template's labels satisfy, a template whose Pods always restart, and a selector
// that, unlike a ReplicaSet's, may change.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../server/httpClient.ts';
import { suiteServer } from '../server/suiteServer.ts';
import { causes } from './causes.ts';

const suite = suiteServer();
const RCS = '/api/v1/namespaces/default/replicationcontrollers';
const template = (labels: Record<string, string>, spec: Record<string, unknown> = {}) => ({ metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } });
const rc = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name }, spec });

describe('ReplicationController validation', () => {
  it('needs a selector and a template, and refuses negative counts', async () => {
    const r = await call(suite.server, 'POST', RCS, { body: rc('bare', { replicas: -1, minReadySeconds: -1 }) });
    assert.deepEqual(causes(r), [
      ['FieldValueInvalid', 'spec.minReadySeconds', 'Invalid value: -1: must be greater than or equal to 0'],
      ['FieldValueRequired', 'spec.selector', 'Required value'],
      ['FieldValueInvalid', 'spec.replicas', 'Invalid value: -1: must be greater than or equal to 0'],
      ['FieldValueRequired', 'spec.template', 'Required value'],
    ]);
  });

  it('refuses a template its selector does not match, or whose Pods do not always restart', async () => {
    const r = await call(suite.server, 'POST', RCS, { body: rc('odd', { selector: { app: 'a' }, template: template({ app: 'b' }, { restartPolicy: 'Never', activeDeadlineSeconds: 5 }) }) });
    assert.deepEqual(causes(r), [
      ['FieldValueInvalid', 'spec.template.metadata.labels', 'Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`'],
      ['FieldValueNotSupported', 'spec.template.spec.restartPolicy', 'Unsupported value: "Never": supported values: "Always"'],
      ['FieldValueForbidden', 'spec.template.spec.activeDeadlineSeconds', 'Forbidden: activeDeadlineSeconds in ReplicationController is not Supported'],
    ]);
  });

  it('may change its selector along with the template', async () => {
    const stored = (await call(suite.server, 'POST', RCS, { body: rc('moving', { template: template({ app: 'a' }) }) })).json();
    assert.equal(stored.metadata.generation, 1);
    const moved = await call(suite.server, 'PUT', `${RCS}/moving`, { body: { ...stored, spec: { ...stored.spec, selector: { app: 'b' }, template: template({ app: 'b' }) } } });
    assert.equal(moved.status, 200, moved.body);
    assert.deepEqual([moved.json().spec.selector, moved.json().metadata.generation], [{ app: 'b' }, 2]);
  });
});

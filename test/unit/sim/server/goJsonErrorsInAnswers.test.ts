import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './httpClient.ts';
import { suiteServer } from './suiteServer.ts';

// Where kube-apiserver reads JSON that is not a request body — a continue token, a Secret's
// .dockerconfigjson — its answer carries Go's decoding error, and so does the sim's.

const suite = suiteServer();

describe('Go\'s JSON errors in answers', () => {
  it('a continue token that is base64 but not JSON names the byte Go\'s scanner refused', async () => {
    const r = await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps?limit=1&continue=garbage');
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'invalid continue token: continue key is not valid: invalid character \'\\u0081\' looking for beginning of value');
  });

  it('a continue token that is not base64 names the input byte', async () => {
    const r = await call(suite.server, 'GET', '/api/v1/namespaces/default/configmaps?limit=1&continue=ab%2Bc');
    assert.equal(r.json().message, 'invalid continue token: continue key is not valid: illegal base64 data at input byte 2');
  });

  it('a dockerconfigjson Secret whose config is not JSON is invalid, its contents redacted', async () => {
    const r = await call(suite.server, 'POST', '/api/v1/namespaces/default/secrets', {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'pull' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from('not json').toString('base64') } },
    });
    assert.equal(r.status, 422, r.body);
    assert.equal(r.json().message, 'Secret "pull" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character \'o\' in literal null (expecting \'u\')');
  });

  it('a dockerconfigjson that is JSON but not an object cannot be unmarshalled into a map', async () => {
    const r = await call(suite.server, 'POST', '/api/v1/namespaces/default/secrets', {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'pull-list' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from('[]').toString('base64') } },
    });
    assert.equal(r.json().details.causes[0].message, 'Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}');
  });
});

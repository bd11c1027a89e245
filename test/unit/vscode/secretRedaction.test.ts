import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { redactSecret } from '../../../src/vscode/redact.ts';
import { objectToYaml } from '../../../src/vscode/objectYaml.ts';

describe('secret redaction', () => {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', namespace: 'default', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"aHVudGVyMg=="}}' } },
    data: { password: 'aHVudGVyMg==' },
    stringData: { token: 'abc' },
  };

  it('replaces values with their sizes and keeps the keys', () => {
    const yaml = objectToYaml(secret);
    assert.match(yaml, /password: "<redacted: 7 bytes>"/);
    assert.match(yaml, /token: "<redacted: 3 bytes>"/);
    assert.doesNotMatch(yaml, /aHVudGVyMg/);
  });

  it('shows values when asked to and leaves other kinds alone', () => {
    assert.equal(redactSecret(secret, true), secret);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { password: 'x' } };
    assert.equal(redactSecret(cm, false), cm);
  });

  it('drops managedFields from documents', () => {
    const yaml = objectToYaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: [{ manager: 'kubectl' }] } });
    assert.doesNotMatch(yaml, /managedFields/);
  });
});

import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { describeText } from '../../../src/vscode/documents/describeText.ts';
import { editableYaml, parseEdited } from '../../../src/vscode/documents/editableObject.ts';

// The texts behind Describe and Edit in the tree's context menu.

const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('Describe', () => {
  it('reads like kubectl describe: metadata first, data, then events', () => {
    const text = describeText(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'default', uid: 'u1', resourceVersion: '42', labels: { app: 'web', tier: 'fe' }, creationTimestamp: '2026-11-23T11:58:00Z' }, data: { LOG_LEVEL: 'info' } },
      [{ type: 'Normal', reason: 'Synced', message: 'ok', lastTimestamp: '2026-11-23T11:59:30Z', source: { component: 'my-controller' } }],
      NOW,
    );
    const lines = text.split('\n');
    assert.equal(lines[0], 'Name:         app-config');
    assert.equal(lines[1], 'Namespace:    default');
    assert.equal(lines[2], 'Kind:         ConfigMap (v1)');
    assert.deepEqual(lines.slice(3, 5), ['Labels:       app=web', '              tier=fe']);
    assert.ok(lines.includes('Annotations:  <none>'));
    assert.ok(lines.includes('Created:      2026-11-23T11:58:00Z (2m ago)'));
    assert.deepEqual(lines.slice(lines.indexOf('Data'), lines.indexOf('Data') + 5), ['Data', '====', 'LOG_LEVEL:', '----', 'info']);
    assert.match(text, /Events:\n {2}Type +Reason +Age +From +Message\n {2}Normal +Synced +30s +my-controller +ok\n$/);
  });

  it('never shows Secret values, only their sizes', () => {
    const text = describeText({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'demo' }, type: 'Opaque', data: { apiKey: Buffer.from('sk_test_42').toString('base64') } }, [], NOW);
    assert.match(text, /apiKey: {2}10 bytes/);
    assert.doesNotMatch(text, /sk_test|c2tf/);
    assert.match(text, /Events:\n {2}<none>\n$/);
  });

  it('summarises a Deployment: selector, replicas, containers, conditions', () => {
    const text = describeText({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', generation: 3 },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } }, strategy: { type: 'RollingUpdate' } },
      status: { replicas: 2, updatedReplicas: 2, availableReplicas: 1, readyReplicas: 1, conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }] },
    }, undefined, NOW);
    assert.match(text, /Selector: {5}app=web/);
    assert.match(text, /Replicas: {5}2 desired \| 2 updated \| 2 total \| 1 available \| 1 ready/);
    assert.match(text, /Containers:\n {2}web:\n {4}Image: {2}nginx:1\.27/);
    assert.match(text, /Conditions:\n {2}Type +Status +Reason +Message\n {2}Available +False +MinimumReplicasUnavailable/);
    assert.match(text, /Spec:\n {2}strategy:\n {4}type: RollingUpdate/);
    assert.match(text, /Events:\n {2}<could not be listed>/);
  });
});

describe('Edit', () => {
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', resourceVersion: '7', managedFields: [{ manager: 'kubectl' }] }, data: { v: '1' } };
  const identity = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a' };

  it('opens without managedFields and saves with the resourceVersion it was read at', () => {
    const text = editableYaml(obj);
    assert.doesNotMatch(text, /managedFields/);
    const saved = parseEdited(text.replace('v: "1"', 'v: "2"'), identity);
    assert.deepEqual(saved.data, { v: '2' });
    assert.equal(saved.metadata.resourceVersion, '7');
  });

  it('refuses a save that renames the object or does not parse, saying why', () => {
    assert.throws(() => parseEdited(editableYaml(obj).replace('name: a', 'name: b'), identity), /metadata\.name \(was a\) cannot change/);
    assert.throws(() => parseEdited('data: [unclosed', identity), /does not parse/);
    assert.throws(() => parseEdited('- a\n- b\n', identity), /one object/);
  });
});

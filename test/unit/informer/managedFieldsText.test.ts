import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dropManagedFields, textFormOf } from '../../../src/informer/index.ts';
import { dropManagedFieldsText } from '../../../src/informer/managedFieldsText.ts';
import type { KubeObject } from '../../../src/shared/k8s.ts';
import { podJson } from '../../../bench/lib/podJson.ts';

const MANAGED = [{ manager: 'kubelet', operation: 'Update', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {} } }, 'k:{"name":"web"}': {} } }];

/** What the object-level transform leaves: the reference the text form must match once parsed. */
function expected(json: string): unknown {
  return dropManagedFields(JSON.parse(json));
}

describe('managedFields cut out of JSON text before parsing', () => {
  it('gives the same object as dropping them after parsing, wherever they sit in metadata', () => {
    const metadatas = [
      { managedFields: MANAGED, name: 'first', namespace: 'ns' },
      { name: 'middle', managedFields: MANAGED, namespace: 'ns' },
      { name: 'last', namespace: 'ns', managedFields: MANAGED },
      { managedFields: MANAGED },
      { managedFields: [] },
      { name: 'none', namespace: 'ns' },
      {},
    ];
    for (const metadata of metadatas) {
      const json = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { a: 'b' } });
      const cut = dropManagedFieldsText(json);
      assert.deepEqual(JSON.parse(cut), expected(json), json);
      assert.equal(cut.includes('kubelet'), false, json);
    }
  });

  it('keeps every other field, also ones that look like managedFields: in strings, in other objects, escaped', () => {
    const obj = {
      kind: 'Widget',
      spec: { managedFields: ['kept: not metadata'], text: '"managedFields":[1] \\" \\\\', metadata: { managedFields: 'kept: nested metadata' } },
      metadata: {
        annotations: { note: '{"managedFields":[{"manager":"x"}]}', 'quote"managedFields': 'x\\' },
        'managedFields\\': 'kept: another key',
        name: 'w 日本 🙂',
        managedFields: MANAGED,
        labels: { app: 'a' },
      },
      status: { managedFields: 'kept' },
    };
    const json = JSON.stringify(obj);
    assert.deepEqual(JSON.parse(dropManagedFieldsText(json)), expected(json));
    const spaced = JSON.stringify(obj, null, 2);
    assert.deepEqual(JSON.parse(dropManagedFieldsText(spaced)), expected(spaced), 'indented JSON');
  });

  it('cuts them from a Pod as a cluster returns it, and from a watch event line', () => {
    const pod = podJson('ns', 7, 1234, 2);
    assert.ok(pod.includes('"managedFields"'));
    const cut = dropManagedFieldsText(pod);
    assert.deepEqual(JSON.parse(cut), expected(pod));
    assert.ok(cut.length < pod.length * 0.75, `a third of a Pod's JSON is managedFields (${cut.length} of ${pod.length})`);
    const line = `{"type":"MODIFIED","object":${pod}}`;
    const event = JSON.parse(dropManagedFieldsText(line, true)) as { type: string; object: unknown };
    assert.equal(event.type, 'MODIFIED');
    assert.deepEqual(event.object, expected(pod));
  });

  it('leaves text it does not understand as it is, without throwing', () => {
    const pod = podJson('ns', 1, 10, 0);
    for (const odd of ['', '[]', 'null', '{', '{"metadata":', '{"metadata":{"managedFields":[{"a":"}]}', pod.slice(0, pod.indexOf('managedFields') + 40), '{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"5"}}}']) {
      assert.equal(dropManagedFieldsText(odd, false), odd);
      assert.equal(dropManagedFieldsText(odd, true), odd);
    }
    assert.equal(dropManagedFieldsText(pod, true), pod, 'a bare object read as an event has no `object`');
  });

  it('is the text form the informer hands backends for dropManagedFields, and only for it', () => {
    assert.equal(textFormOf<KubeObject>(dropManagedFields), dropManagedFieldsText);
    assert.equal(textFormOf((o: unknown) => o), undefined);
    assert.equal(textFormOf(undefined), undefined);
  });
});

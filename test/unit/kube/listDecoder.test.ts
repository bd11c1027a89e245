import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ListDecoder } from '../../../src/kube/listDecoder.ts';
import { withoutKeysBeginningEscaped } from './support/jsonKeys.ts';

/**
 * Feeds `body` in pieces of the given sizes (cycled), as sockets deliver it. `outOfTime`: each push
 * is already past its deadline, so the decoder stops after every item and the rest is pushed again.
 */
function decode(body: Buffer, sizes: number[], outOfTime = false): { list: Record<string, unknown>; items: unknown[] } {
  const decoder = new ListDecoder();
  let at = 0;
  for (let k = 0; at < body.length; k++) {
    const size = Math.max(1, sizes[k % sizes.length]!);
    const piece = body.subarray(at, at + size);
    if (!outOfTime) decoder.push(piece);
    else for (let read = 0; read < piece.length; ) read += decoder.push(piece.subarray(read), 0);
    at += size;
  }
  return decoder.end();
}

// Strings that trip naive scanners: quotes, backslashes (also before a quote), brackets, multi-byte UTF-8.
const tricky = fc.oneof(fc.string(), fc.constantFrom('"', '\\', '\\"', '\\\\', '}', ']', '{"items":[', 'é', '日本', '🙂', 'items'), fc.string({ unit: 'grapheme' }));
const trickyKey = withoutKeysBeginningEscaped(tricky);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(trickyKey, tie('v'), { maxKeys: 3 })),
})).v;
const item = fc.record({ metadata: fc.record({ name: tricky, labels: fc.dictionary(trickyKey, tricky, { maxKeys: 3 }) }), data: fc.dictionary(trickyKey, value, { maxKeys: 4 }), items: fc.array(value, { maxLength: 2 }) });

describe('list decoder (items parsed as the body arrives)', () => {
  it('reads what JSON.parse reads, however the body is cut', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), tricky, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean(), (items, rv, sizes, itemsFirst, outOfTime) => {
        const envelope = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: rv, continue: 'x"]}' } };
        const list = itemsFirst ? { items, ...envelope } : { ...envelope, items };
        const body = Buffer.from(JSON.stringify(list, null, sizes[0]! % 2 === 0 ? 0 : 1));
        const decoded = decode(body, sizes, outOfTime);
        assert.deepEqual(decoded.items, JSON.parse(JSON.stringify(items)));
        assert.deepEqual(decoded.list['metadata'], envelope.metadata);
        assert.deepEqual(decoded.list['items'], []);
      }),
      { numRuns: 300 },
    );
  });

  it('finds the end of long strings and escapes anywhere in them, however the body is cut', () => {
    // Strings longer than the scanner's byte-by-byte look-ahead, with escaped quotes and
    // backslashes before, at and after where it hands over to a native search.
    const longString = fc.tuple(fc.nat(120), fc.constantFrom('\\"', '\\\\', '"', '\\', '}]'), fc.nat(120)).map(([a, mid, b]) => `${'a'.repeat(a)}${mid}${'b'.repeat(b)}`);
    fc.assert(
      fc.property(fc.array(fc.record({ metadata: fc.record({ name: longString }), data: fc.dictionary(longString, longString, { maxKeys: 3 }) }), { maxLength: 4 }), fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 6 }), (items, sizes) => {
        const body = Buffer.from(JSON.stringify({ kind: 'ConfigMapList', metadata: { resourceVersion: '1' }, items }));
        assert.deepEqual(decode(body, sizes).items, JSON.parse(JSON.stringify(items)));
      }),
      { numRuns: 400 },
    );
  });

  it('parses each item on its own: items are ready before the body ends, and chunks need not be kept', () => {
    const decoder = new ListDecoder<{ metadata: { name: string } }>();
    decoder.push(Buffer.from('{"kind":"PodList","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"a"}},{"metad'));
    assert.deepEqual(decoder.items.map((i) => i.metadata.name), ['a']);
    decoder.push(Buffer.from('ata":{"name":"b"}}]}'));
    const { list, items } = decoder.end();
    assert.deepEqual(items.map((i) => i.metadata.name), ['a', 'b']);
    assert.deepEqual(list['metadata'], { resourceVersion: '7' });
  });

  it('out of time, stops right after an item and says how much it read; the rest, pushed later, goes on from there', () => {
    const decoder = new ListDecoder<{ n: number }>();
    const chunk = Buffer.from('{"kind":"List","items":[{"n":1},{"n":2},{"n":3}],"metadata":{"resourceVersion":"9"}}');
    const first = decoder.push(chunk, 0);
    assert.equal(chunk.subarray(0, first).toString(), '{"kind":"List","items":[{"n":1}');
    assert.deepEqual(decoder.items, [{ n: 1 }]);
    const second = decoder.push(chunk.subarray(first), 0);
    assert.equal(chunk.subarray(first, first + second).toString(), ',{"n":2}');
    // With time left, the rest at once.
    assert.equal(decoder.push(chunk.subarray(first + second), Infinity), chunk.length - first - second);
    assert.deepEqual(decoder.end(), { list: { kind: 'List', items: [], metadata: { resourceVersion: '9' } }, items: [{ n: 1 }, { n: 2 }, { n: 3 }] });
  });

  it('takes a body that is not a list whole (a Status, items null)', () => {
    assert.deepEqual(decode(Buffer.from('{"kind":"Status","code":200}'), [3]).list, { kind: 'Status', code: 200 });
    assert.deepEqual(decode(Buffer.from('{"kind":"PodList","items":null}'), [5]), { list: { kind: 'PodList', items: null }, items: [] });
  });

  it('rejects invalid JSON in an item and a body cut short', () => {
    assert.throws(() => decode(Buffer.from('{"items":[{"a":tru}]}'), [100]), SyntaxError);
    assert.throws(() => decode(Buffer.from('{"items":[{"a":1},{"b":'), [7]), SyntaxError);
    assert.throws(() => decode(Buffer.from('{"metadata":{"resourceVersion":"1"'), [7]), SyntaxError);
  });

  it('takes most items by the bytes between them, and only whole items', () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ metadata: { name: `cm-${i}`, namespace: 'ns' }, data: { k: 'v'.repeat(i % 50) } }));
    const decoder = new ListDecoder();
    decoder.push(Buffer.from(JSON.stringify({ kind: 'ConfigMapList', metadata: { resourceVersion: '5' }, items })));
    assert.deepEqual(decoder.end().items, items);
    // The first item shows the separator and the last is followed by none: both are scanned.
    assert.equal(decoder.itemsBySeparator, items.length - 2);
  });

  it('reads what JSON.parse reads when separators turn up inside items, however the body is cut', () => {
    // Items whose nested arrays hold objects that start as items do, strings holding the
    // separator's bytes, and items that are not JSON-equal to their neighbours' shape.
    const fragment = fc.constantFrom('},{"metadata":', '},{', '{"metadata":', '"},{"metadata":"', '\\', 'x');
    const text = fc.oneof(tricky, fragment, fc.array(fragment, { maxLength: 3 }).map((f) => f.join('')));
    const nested = fc.array(fc.record({ metadata: fc.record({ name: text }) }), { maxLength: 3 });
    const listItem = fc.record({
      metadata: fc.record({ name: text, annotations: fc.dictionary(withoutKeysBeginningEscaped(text), text, { maxKeys: 2 }) }),
      spec: fc.record({ templates: nested, note: text }),
    });
    fc.assert(
      fc.property(fc.array(listItem, { maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 4 }), fc.boolean(), (items, sizes, outOfTime) => {
        const body = Buffer.from(JSON.stringify({ kind: 'PodList', metadata: { resourceVersion: '1' }, items }));
        assert.deepEqual(decode(body, sizes, outOfTime).items, JSON.parse(JSON.stringify(items)));
      }),
      { numRuns: 500 },
    );
  });

  it('carries an item that a chunk cuts in two over to the next chunk, and takes it by its separator there', () => {
    const items = Array.from({ length: 300 }, (_, i) => ({ metadata: { name: `pod-${i}`, namespace: 'ns' }, spec: { note: 'n'.repeat(900 + (i % 7) * 100) } }));
    const body = Buffer.from(JSON.stringify({ kind: 'PodList', metadata: { resourceVersion: '5' }, items }));
    // As TLS hands a body over: ~16 KB at a time, cutting an item every chunk.
    for (const outOfTime of [false, true]) {
      const decoder = new ListDecoder();
      for (let at = 0; at < body.length; at += 16384) {
        const piece = body.subarray(at, at + 16384);
        if (!outOfTime) assert.equal(decoder.push(piece), piece.length);
        else for (let read = 0; read < piece.length; ) read += decoder.push(piece.subarray(read), 0);
      }
      assert.deepEqual(decoder.end().items, items);
      // Only the first (it shows the separator) and the last (none follows it) are scanned.
      assert.equal(decoder.itemsBySeparator, items.length - 2, `out of time: ${outOfTime}`);
    }
  });

  it('custom resources: their ownerReferences and managedFields entries start as they do, and are still told apart', () => {
    // As kube-apiserver writes unstructured objects: keys sorted, so apiVersion comes first in the
    // object, in each owner reference and in each managedFields entry.
    const entry = (manager: string) => ({ apiVersion: 'lab.example.com/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} }, manager, operation: 'Update' });
    const items = Array.from({ length: 200 }, (_, i) => ({
      apiVersion: 'lab.example.com/v1',
      kind: 'Widget',
      metadata: {
        managedFields: [entry('kubectl'), entry('controller'), entry('other')],
        name: `w-${i}`,
        ownerReferences: [{ apiVersion: 'lab.example.com/v1', kind: 'Widget', name: 'parent', uid: 'u1' }, { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u2' }],
      },
      spec: { parts: [{ apiVersion: 'lab.example.com/v1', kind: 'Widget', metadata: { name: 'embedded' } }, { apiVersion: 'lab.example.com/v1', kind: 'Widget' }] },
    }));
    const body = Buffer.from(JSON.stringify({ apiVersion: 'lab.example.com/v1', items, kind: 'WidgetList', metadata: { resourceVersion: '9' } }));
    const decoder = new ListDecoder();
    for (let at = 0; at < body.length; at += 16384) decoder.push(body.subarray(at, at + 16384));
    assert.deepEqual(decoder.end().items, items);
    assert.equal(decoder.itemsBySeparator, items.length - 2);
  });

  it('reads every item when items hold separators themselves: past one, the scanner reads them', () => {
    const list = (templates: number) => Array.from({ length: 200 }, (_, i) => ({
      metadata: { name: `sts-${i}` },
      spec: { volumeClaimTemplates: Array.from({ length: templates }, (_, t) => ({ metadata: { name: `data-${t}` } })) },
    }));
    for (const [templates, bySeparator] of [[2, 198], [3, 0]] as const) {
      const items = list(templates);
      const decoder = new ListDecoder();
      decoder.push(Buffer.from(JSON.stringify({ kind: 'StatefulSetList', metadata: {}, items })));
      assert.deepEqual(decoder.end().items, items);
      assert.equal(decoder.itemsBySeparator, bySeparator, `${templates} templates`);
    }
  });

  it('an invalid item among items taken by separator is still a SyntaxError', () => {
    assert.throws(() => decode(Buffer.from('{"items":[{"a":1},{"a":2},{"a":tru},{"a":3}]}'), [1000]), SyntaxError);
  });
});

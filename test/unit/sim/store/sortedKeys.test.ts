import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SortedKeys } from '../../../../src/sim/store/sortedKeys.ts';

test('sorted keys behave like a sorted set under any interleaving of inserts, removes and reads', () => {
  const key = fc.tuple(fc.constantFrom('a', 'a-b', 'b', 'kube-system'), fc.constantFrom('x', 'y', 'z1', 'z10', 'z2')).map(([ns, n]) => `${ns}/${n}`);
  const op = fc.oneof(
    fc.record({ t: fc.constant<'toggle'>('toggle'), key }),
    fc.record({ t: fc.constant<'range'>('range'), prefix: fc.constantFrom('', 'a/', 'a-b/', 'b/'), from: fc.constantFrom('', 'a/y', 'b/z1') }),
  );
  fc.assert(fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
    const keys = new SortedKeys();
    const model = new Set<string>();
    for (const o of ops) {
      if (o.t === 'toggle') {
        if (model.has(o.key)) { model.delete(o.key); keys.remove(o.key); } else { model.add(o.key); keys.insert(o.key); }
      } else {
        const lo = o.from > o.prefix ? o.from : o.prefix;
        const expected = [...model].filter((k) => k.startsWith(o.prefix) && k >= lo).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        assert.deepEqual([...keys.range(o.prefix, o.from)], expected);
        assert.equal(keys.countFrom(o.prefix, o.from), expected.length);
      }
      assert.equal(keys.size, model.size);
    }
  }), { numRuns: 300 });
});

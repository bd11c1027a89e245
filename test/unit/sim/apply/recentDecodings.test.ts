import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentDecodings } from '../../../../src/sim/apply/recentDecodings.ts';

test('keeps the decodings of the most recently used objects only, up to its budget of bytes', () => {
  const recent = new RecentDecodings<object, string>(100);
  const [a, b, c] = [{}, {}, {}];
  recent.set(a, 'a', 40);
  recent.set(b, 'b', 40);
  assert.equal(recent.get(a), 'a', 'a read makes it the most recent');
  recent.set(c, 'c', 40);
  assert.equal(recent.get(b), undefined, 'the least recently used went');
  assert.equal(recent.get(a), 'a');
  assert.equal(recent.get(c), 'c');
  assert.equal(recent.size, 2);
  assert.equal(recent.bytes, 80);
});

test('one large decoding pushes out as many small ones as it takes, and one over the budget is not kept', () => {
  const recent = new RecentDecodings<object, string>(100);
  const small = [{}, {}, {}, {}, {}];
  small.forEach((k, i) => recent.set(k, `s${i}`, 20));
  const large = {};
  recent.set(large, 'large', 70);
  assert.deepEqual(small.map((k) => recent.get(k)), [undefined, undefined, undefined, undefined, 's4']);
  assert.equal(recent.bytes, 90);
  const huge = {};
  recent.set(huge, 'huge', 101);
  assert.equal(recent.get(huge), undefined);
  assert.equal(recent.get(large), 'large', 'what was kept stays');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecentDecodings } from '../../../../src/sim/apply/recentDecodings.ts';

test('keeps the decodings of the most recently used objects only, up to its capacity', () => {
  const recent = new RecentDecodings<object, string>(2);
  const [a, b, c] = [{}, {}, {}];
  recent.set(a, 'a');
  recent.set(b, 'b');
  assert.equal(recent.get(a), 'a', 'a read makes it the most recent');
  recent.set(c, 'c');
  assert.equal(recent.get(b), undefined, 'the least recently used went');
  assert.equal(recent.get(a), 'a');
  assert.equal(recent.get(c), 'c');
  assert.equal(recent.size, 2);
});

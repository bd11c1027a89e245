import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { lineDiff, withContext } from '../../../src/vscode/lineDiff.ts';

describe('line diff', () => {
  it('marks changed lines and keeps the rest', () => {
    const diff = lineDiff('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
    assert.deepEqual(diff, [
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'B' },
      { op: ' ', text: 'c' },
      { op: ' ', text: 'd' },
      { op: '+', text: 'e' },
    ]);
  });

  it('reproduces both sides exactly (random edits)', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const a = Array.from({ length: Math.floor(rnd() * 30) }, () => String(Math.floor(rnd() * 6)));
      const b = a.filter(() => rnd() > 0.2).flatMap((x) => (rnd() > 0.8 ? [x, String(Math.floor(rnd() * 6))] : [x]));
      const diff = lineDiff(a.join('\n'), b.join('\n'));
      assert.deepEqual(diff.filter((l) => l.op !== '+').map((l) => l.text), a);
      assert.deepEqual(diff.filter((l) => l.op !== '-').map((l) => l.text), b);
    }
  });

  it('shows only context around changes', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const after = before.replace('l10', 'L10');
    const lines = withContext(lineDiff(before, after), 2);
    assert.deepEqual(lines.map((l) => l.op + l.text), [' l8', ' l9', '-l10', '+L10', ' l11', ' l12']);
  });
});

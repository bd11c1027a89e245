import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineSplitter, LineTooLongError } from '../../../src/kube/lineSplitter.ts';

function split(chunks: string[]): string[] {
  const lines: string[] = [];
  const s = new LineSplitter((l) => lines.push(l));
  for (const c of chunks) s.push(c);
  s.end();
  return lines;
}

test('a line cut anywhere by chunk boundaries comes out whole', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ minLength: 1 }).filter((l) => !l.includes('\n') && !l.includes('\r') && l.trim() === l), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 30 }), (lines, cuts) => {
      const text = lines.map((l) => `${l}\n`).join('');
      const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
      const chunks: string[] = [];
      let at = 0;
      for (const p of points) {
        chunks.push(text.slice(at, p));
        at = p;
      }
      chunks.push(text.slice(at));
      assert.deepEqual(split(chunks), lines);
    }),
  );
});

test('CRLF endings and blank lines are tolerated, a last unterminated line still counts', () => {
  assert.deepEqual(split(['{"a":1}\r\n\r', '\n{"b"', ':2}']), ['{"a":1}', '{"b":2}']);
});

test('nothing is emitted until the newline arrives', () => {
  const lines: string[] = [];
  const s = new LineSplitter((l) => lines.push(l));
  s.push('{"type":"ADDED"');
  assert.deepEqual(lines, []);
  assert.equal(s.buffered, 15);
  s.push('}\n');
  assert.deepEqual(lines, ['{"type":"ADDED"}']);
});

test('a line longer than the limit throws LineTooLongError as soon as it is too long, in one chunk or many', () => {
  const lines: string[] = [];
  const whole = new LineSplitter((l) => void lines.push(l), 8);
  whole.push('12345678\nabc\n');
  assert.deepEqual(lines, ['12345678', 'abc'], 'a line of exactly the limit passes');
  assert.throws(() => whole.push('123456789\n'), (err: unknown) => err instanceof LineTooLongError && err.limit === 8);

  const pieces = new LineSplitter((l) => void lines.push(l), 8);
  pieces.push('1234');
  pieces.push('5678');
  // No newline yet: the ninth character is already too many, nothing more is buffered.
  assert.throws(() => pieces.push('9'), LineTooLongError);
  assert.equal(pieces.buffered, 0);
  const tail = new LineSplitter((l) => void lines.push(l), 8);
  assert.throws(() => tail.push('ok\n123456789'), LineTooLongError);
  assert.deepEqual(lines, ['12345678', 'abc', 'ok']);
});

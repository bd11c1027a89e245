import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GoSource } from '../../../../src/setup/goProject/goScanner.ts';

test('comments, interpreted and raw strings and runes are not code', () => {
  const text = [
    'package main',
    '// ctrl.NewManager( in a comment',
    '/* and NewManager( in a block',
    '   comment */',
    'var a = "NewManager(\\" still a string"',
    'var b = `raw NewManager(',
    'across lines`',
    "var c = '('",
    'var d = ctrl.NewManager(cfg)',
  ].join('\n');
  const src = new GoSource(text);
  const found = src.matches(/NewManager\(/);
  assert.equal(found.length, 1);
  assert.equal(src.lineOf(found[0]!.index), 9);
});

test('closing brackets skip brackets inside literals and comments', () => {
  const text = 'f(a, ")", \'(\', `)`, /* ) */ g(b[1]), func() { x := "}" })\n// )\nnext()';
  const src = new GoSource(text);
  const close = src.closing(1);
  assert.equal(text.slice(close), ')\n// )\nnext()');
  assert.equal(src.closing(text.indexOf('{')), text.lastIndexOf('}'));
  assert.equal(new GoSource('f(a, b').closing(1), -1);
  assert.equal(new GoSource('f(a]').closing(1), -1);
});

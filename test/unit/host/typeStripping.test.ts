import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stripTypes } from '../../../src/host/typeStripping.ts';

// Without esbuild, what the user sees of their TypeScript is what stripTypes gives the loader: the
// same lines and columns, or an error that points at them.

function errorOf(source: string): string {
  try {
    stripTypes(source, '/ws/c.ts');
  } catch (err) {
    assert.equal((err as Error).name, 'ControllerLoadError');
    return (err as Error).message;
  }
  assert.fail('expected the source to be refused');
}

test('types become spaces: every line and column of the code stays where the user wrote it', () => {
  const source = 'const n: number = 1;\nfunction f(a: string, b?: number): string {\n  return a as string;\n}\n';
  const js = stripTypes(source, '/ws/c.ts');
  assert.equal(js.length, source.length);
  assert.deepEqual(js.split('\n').map((l) => l.indexOf('return')), source.split('\n').map((l) => l.indexOf('return')));
  assert.equal(js.indexOf('1;'), source.indexOf('1;'));
});

test('syntax that needs code generated is reported at file:line:col with what to write instead', () => {
  assert.match(errorOf('const a = 1;\nenum Color {\n  Red,\n}\n'), /^\/ws\/c\.ts:2:1: error: TypeScript enum is not supported .*union of string literals/);
  assert.match(errorOf('\tenum X { A }\n'), /^\/ws\/c\.ts:1:2: error: TypeScript enum/, 'a tab counts as one column');
  assert.match(errorOf('class A {\n  constructor(private x: number) {}\n}\n'), /^\/ws\/c\.ts:2:23: error: TypeScript parameter property .*assign it in the constructor/);
  assert.match(errorOf('namespace N {\n  export const x = 1;\n}\n'), /^\/ws\/c\.ts:1:1: error: TypeScript namespace .*use a module/);
});

test('a plain syntax error is reported at its line and column', () => {
  assert.match(errorOf('const ok = 1;\nlet x: = 3;\n'), /^\/ws\/c\.ts:2:8: error: Unexpected token `=`/);
});

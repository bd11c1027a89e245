import { test } from 'node:test';
import assert from 'node:assert/strict';
import { includeTypesIn } from '../../../../src/debug/vscode/tsconfigInclude.ts';

const TYPES = 'types/controller-lab.d.ts';

test('Add Controller Types puts the declaration into tsconfig include, or says what to do', () => {
  const created = includeTypesIn(undefined, TYPES);
  assert.deepEqual(JSON.parse(created.text ?? '{}').include, ['**/*.ts', TYPES]);

  const added = includeTypesIn(JSON.stringify({ include: ['src'] }), TYPES);
  assert.deepEqual(JSON.parse(added.text ?? '{}').include, ['src', TYPES]);

  assert.equal(includeTypesIn(JSON.stringify({ include: [TYPES] }), TYPES).text, undefined);
  assert.equal(includeTypesIn(JSON.stringify({ compilerOptions: {} }), TYPES).text, undefined, 'no include: every .ts file is in');
  const commented = includeTypesIn('{ // comments\n "include": ["src"] }', TYPES);
  assert.equal(commented.text, undefined);
  assert.match(commented.hint, /Add "types\/controller-lab\.d\.ts" to "include"/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'jsonc-parser';
import { includeTypesIn } from '../../../../src/debug/vscode/tsconfigInclude.ts';

const TYPES = 'types/controller-lab.d.ts';

test('Add Controller Types puts the declaration into tsconfig include, or says what to do', () => {
  const created = includeTypesIn(undefined, TYPES);
  assert.deepEqual(JSON.parse(created.text ?? '{}').include, ['**/*.ts', TYPES]);

  const added = includeTypesIn(JSON.stringify({ include: ['src'] }), TYPES);
  assert.deepEqual(JSON.parse(added.text ?? '{}').include, ['src', TYPES]);

  assert.equal(includeTypesIn(JSON.stringify({ include: [TYPES] }), TYPES).text, undefined);
  assert.equal(includeTypesIn(JSON.stringify({ compilerOptions: {} }), TYPES).text, undefined, 'no include: every .ts file is in');
  const broken = includeTypesIn('{ "include": ["src"', TYPES);
  assert.equal(broken.text, undefined);
  assert.match(broken.hint, /Add "types\/controller-lab\.d\.ts" to "include"/);
});

// tsconfig.json is JSON with comments: `tsc --init` writes one, and the examples' has some.
test('Add Controller Types reads a tsconfig with comments as tsc does, and keeps its comments', () => {
  const examples = includeTypesIn(readFileSync(new URL('../../../../examples/tsconfig.json', import.meta.url), 'utf8'), TYPES);
  assert.equal(examples.text, undefined, 'examples/tsconfig.json includes **/*.ts already');
  assert.equal(examples.hint, 'tsconfig.json already includes it.');

  const commented = [
    '{',
    '  // Visit https://aka.ms/tsconfig to read more about this file',
    '  "compilerOptions": { "strict": true, /* "noEmit": true, */ },',
    '  "include": ["src"],',
    '}',
  ].join('\n');
  const added = includeTypesIn(commented, TYPES);
  assert.equal(added.hint, 'Added it to tsconfig.json.');
  assert.match(added.text ?? '', /\/\/ Visit https:\/\/aka\.ms\/tsconfig/, 'the comments are kept');
  assert.deepEqual(parse(added.text ?? '').include, ['src', TYPES]);

  for (const pattern of ['**/*', '**/*.d.ts', 'types', './types/', 'types/*.ts']) {
    assert.equal(includeTypesIn(`{ "include": ["${pattern}"] } // mine`, TYPES).text, undefined, `${pattern} takes the file in`);
  }
  assert.deepEqual(parse(includeTypesIn('{ "include": ["src/**/*.ts"] } // mine', TYPES).text ?? '').include, ['src/**/*.ts', TYPES]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildErrorLocations } from '../../../src/debug/buildErrorLocations.ts';
import { describeGoBuildFailure } from '../../../src/runtime/goMessages.ts';

// A failed build's message names the lines to fix: they become problems the editor can go to.

test('go build errors: each file:line:col line, paths made absolute, the package header skipped', () => {
  const message = describeGoBuildFailure(
    '# example.com/shop/internal/controller\ninternal/controller/store_controller.go:79:2: undefined: undefinedThing\ninternal/controller/store_controller.go:81:9: missing return\n',
    '/tmp/shop',
  );
  assert.deepEqual(buildErrorLocations(`Controller Lab could not start cmd: ${message}`), [
    { file: '/tmp/shop/internal/controller/store_controller.go', line: 79, column: 2, message: 'undefined: undefinedThing' },
    { file: '/tmp/shop/internal/controller/store_controller.go', line: 81, column: 9, message: 'missing return' },
  ]);
});

test('TypeScript bundler errors: `error:` dropped from the text', () => {
  assert.deepEqual(buildErrorLocations('/w/controller.ts:12:5: error: Expected ";" but found "x"'), [
    { file: '/w/controller.ts', line: 12, column: 5, message: 'Expected ";" but found "x"' },
  ]);
});

test('a message that names no source line has no locations', () => {
  assert.deepEqual(buildErrorLocations('the Go toolchain was not found (`go` is not on the PATH)'), []);
  assert.deepEqual(buildErrorLocations('listen tcp 127.0.0.1:8080: bind: address already in use'), []);
});

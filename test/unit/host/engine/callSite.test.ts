import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { callerOf, parseFrame } from '../../../../src/host/engine/callSite.ts';

// A write names the controller's line that made it: the frame above the client method.

function clientMethod(): ReturnType<typeof callerOf> {
  return callerOf(clientMethod);
}

describe('call sites of client writes', () => {
  it('is the line that called the client method', () => {
    const site = clientMethod(); // this line
    assert.equal(site?.file, fileURLToPath(import.meta.url));
    const line = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').findIndex((l) => l.endsWith('// this line')) + 1;
    assert.equal(site?.line, line);
  });

  it('reads V8 frames with and without a function name, and file URLs', () => {
    assert.deepEqual(parseFrame('    at async reconcile (/x/controller.ts:12:5)'), { file: '/x/controller.ts', line: 12, function: 'reconcile' });
    assert.deepEqual(parseFrame('    at file:///x/controller.ts:7:3'), { file: '/x/controller.ts', line: 7 });
    assert.equal(parseFrame('Error'), undefined);
  });
});

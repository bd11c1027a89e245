import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControllerUnderCheck } from '../../../../src/check/run/controllerUnderCheck.ts';

// A controller path that is no file is bad input, said before any run starts (check exits 2), not
// a controller that failed in its reference run.

test('a TypeScript target that is no file is refused when the check prepares, with what it is', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cl-check-target-'));
  try {
    mkdirSync(join(root, 'api'));
    writeFileSync(join(root, 'api', 'types.go'), 'package api\n');
    writeFileSync(join(root, 'controller.ts'), 'export default {};\n');
    const prepared = (program: string) => {
      const c = new ControllerUnderCheck({ program, cwd: root });
      return c.prepare().finally(() => c.dispose());
    };
    assert.equal(await prepared('controller.ts'), undefined);
    assert.match((await prepared('missing.ts')) ?? '', /^controller file not found: /);
    assert.match((await prepared('api')) ?? '', /api is Go package api, not a program/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

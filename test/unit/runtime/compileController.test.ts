import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { compileController, stripSingleFile } from '../../../src/runtime/compileController.ts';
import { isControllerDefinition, TerminalError, userApi, USER_API_GLOBAL } from '../../../src/runtime/api.ts';

const RS = fileURLToPath(new URL('../../../examples/replicaset-controller/controller.ts', import.meta.url));
(globalThis as Record<symbol, unknown>)[USER_API_GLOBAL] = userApi;

test('the compiled controller imports the host API, so TerminalError is the same class', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-compile-'));
  try {
    const file = join(dir, 'c.ts');
    writeFileSync(file, "import { defineController, TerminalError } from 'controller-lab';\nexport const E: typeof TerminalError = TerminalError;\nexport default defineController({ name: 'c', for: { apiVersion: 'v1', kind: 'Pod' }, reconcile() {} });\n");
    const compiled = await compileController(file);
    const mod = (await import(pathToFileURL(compiled.moduleFile).href)) as Record<string, unknown>;
    assert.ok(isControllerDefinition(mod['default']));
    assert.equal(mod['E'], TerminalError);
    await compiled.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without esbuild, a single-file TypeScript controller still loads through type stripping', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-strip-'));
  try {
    const out = join(dir, 'rs.mjs');
    await stripSingleFile(RS, out);
    const mod = (await import(pathToFileURL(out).href)) as Record<string, unknown>;
    assert.ok(isControllerDefinition(mod['default']));
    const multi = join(dir, 'multi.ts');
    writeFileSync(multi, "import { helper } from './helper.ts';\nexport default helper;\n");
    await assert.rejects(stripSingleFile(multi, join(dir, 'm.mjs')), /imports \.\/helper\.ts, which needs esbuild/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

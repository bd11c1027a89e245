import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileController } from '../../../src/runtime/compileController.ts';
import { registerControllerModuleHooks } from '../../../src/host/controllerModuleHooks.ts';
import { isControllerDefinition, TerminalError, userApi, USER_API_GLOBAL } from '../../../src/controllerProtocol/api.ts';

(globalThis as Record<symbol, unknown>)[USER_API_GLOBAL] = userApi;

const CONTROLLER = "import { defineController, TerminalError } from 'controller-lab';\nexport const E: typeof TerminalError = TerminalError;\nexport default defineController({ name: 'c', for: { apiVersion: 'v1', kind: 'Pod' }, reconcile() {} });\n";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'cl-compile-'));
}

test('the bundled controller imports the host API, so TerminalError is the same class', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'c.ts');
    writeFileSync(file, CONTROLLER);
    const compiled = await compileController(file, { bundler: 'esbuild' });
    assert.equal(compiled.loader, 'bundle');
    const mod = (await import(pathToFileURL(compiled.moduleFile).href)) as Record<string, unknown>;
    assert.ok(isControllerDefinition(mod['default']));
    assert.equal(mod['E'], TerminalError);
    await compiled.dispose();
    assert.equal(existsSync(compiled.moduleFile), false, 'the bundle is removed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without esbuild the host imports the user files themselves: controller-lab, folder and .js imports resolve', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'c.ts');
    writeFileSync(file, `${CONTROLLER}import { NAME } from './lib';\nexport const name: string = NAME;\n`);
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'index.ts'), "export { NAME } from './names.js';\n");
    writeFileSync(join(dir, 'lib', 'names.ts'), "export const NAME: string = 'from lib/names.ts';\n");
    const compiled = await compileController(file, { bundler: 'none' });
    assert.deepEqual({ moduleFile: compiled.moduleFile, loader: compiled.loader }, { moduleFile: file, loader: 'typeStripping' });

    // What the controller host does before importing moduleFile.
    registerControllerModuleHooks();
    const mod = (await import(pathToFileURL(compiled.moduleFile).href)) as Record<string, unknown>;
    assert.ok(isControllerDefinition(mod['default']));
    assert.equal(mod['E'], TerminalError);
    assert.equal(mod['name'], 'from lib/names.ts');
    await compiled.dispose();
    assert.ok(existsSync(file), "dispose leaves the user's file alone");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing controller file is reported before anything runs', async () => {
  await assert.rejects(compileController(join(tmpdir(), 'cl-no-such-controller.ts'), { bundler: 'none' }), /controller file not found: .*cl-no-such-controller\.ts/);
});

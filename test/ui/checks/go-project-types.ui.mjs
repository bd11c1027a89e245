// UI check: "Add Controller Types to Workspace" in a kubebuilder project (Go only, the first-hour
// fixture) writes nothing by itself: it says the types are for TypeScript controllers and offers
// Set Up This Go Project or the types anyway (go-project-types.png); the types anyway are written
// with a tsconfig.json.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, runCommand } from '../workbench.mjs';
import { waitFor } from '../debugView.mjs';

export const name = 'Add Controller Types in a Go project asks first and offers Set Up This Go Project';

const FIXTURE = join(repoRoot, 'test', 'project', 'fixtures', 'memcached-operator');

/** @param {ReturnType<typeof import('../workbench.mjs').workbench>} workbench */
export async function run(workbench) {
  const { page } = workbench;
  const dir = join(mkdtempSync(join(tmpdir(), 'controller-lab-go-types-')), 'memcached-operator');
  cpSync(FIXTURE, dir, { recursive: true });
  await page.goto(`${new URL(page.url()).origin}/?folder=${encodeURIComponent(dir)}`);
  await workbench.ready();

  await runCommand(page, 'Controller Lab: Add Controller Types to Workspace');
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'this is a Go project' }).first();
  await toast.waitFor({ timeout: 30_000 });
  await workbench.screenshot('go-project-types');
  for (const button of ['Set Up This Go Project', 'Add TypeScript Types Anyway']) {
    assert.equal(await toast.locator('.monaco-button', { hasText: button }).count(), 1, `the question offers ${button}`);
  }
  assert.ok(!existsSync(join(dir, 'tsconfig.json')), 'no tsconfig.json before the user answers');
  assert.ok(!existsSync(join(dir, 'types')), 'no types/ before the user answers');

  await toast.locator('.monaco-button', { hasText: 'Add TypeScript Types Anyway' }).click();
  await waitFor('the types and a tsconfig.json', async () => existsSync(join(dir, 'types', 'controller-lab.d.ts')) && existsSync(join(dir, 'tsconfig.json')), 20_000);
}

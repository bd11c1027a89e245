// UI check: a kubebuilder project (Go only, the first-hour fixture) before it is set up. "Add
// Controller Types to Workspace" writes nothing by itself: it says the types are for TypeScript
// controllers and offers Set Up This Go Project or the types anyway (go-project-types.png); the
// types anyway are written with a tsconfig.json. Watch Resource… with the project's kind typed
// (its CRD not installed) says how to get it served instead of an empty list (go-project-watch.png).
// In a window with no folder, Run Controller says what it needs and offers to choose the file.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, runCommand } from '../workbench.mjs';
import { waitFor } from '../debugView.mjs';

export const name = 'a kubebuilder project: Add Controller Types asks first, Watch Resource says how to serve its CRD; Run Controller with nothing open offers to choose a file';

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

  await runCommand(page, 'Notifications: Clear All Notifications');
  await runCommand(page, 'Controller Lab: Watch Resource…');
  // The simulated cluster starts first: then the picker lists what it serves.
  const input = page.locator('.quick-input-widget input[placeholder^="Watch which resource?"]');
  await input.waitFor({ timeout: 60_000 });
  await input.fill('memcached');
  const hint = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Not listed?' }).first();
  await hint.waitFor({ timeout: 10_000 });
  await workbench.screenshot('go-project-watch');
  assert.match(await hint.innerText(), /its CRD is installed[\s\S]*Load Scenario… including config\/crd\/bases/);
  await page.keyboard.press('Escape');

  await page.goto(`${new URL(page.url()).origin}/?ew=true`);
  await workbench.ready();
  await runCommand(page, 'Controller Lab: Run Controller on Simulated Cluster');
  const ask = page.locator('.notifications-toasts .notification-toast', { hasText: 'Controller Lab: open your controller file to run it' }).first();
  await ask.waitFor({ timeout: 30_000 });
  await workbench.screenshot('run-controller-nothing-open');
  assert.equal(await ask.locator('.monaco-button', { hasText: 'Choose a File…' }).count(), 1, 'the message offers to choose the file');
}

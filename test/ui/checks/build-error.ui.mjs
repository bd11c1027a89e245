// UI check: a Go controller that does not build, debugged from its file as a new user does. The
// build's error is a problem in the Problems view and a notification whose "Go to Error" puts the
// cursor on the line; VS Code's own launch-error dialog (its only action: open launch.json) stays away.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runCommand, repoRoot } from '../workbench.mjs';
import { openFile } from '../files.mjs';
import { waitFor } from '../debugView.mjs';

export const name = 'a Go controller that does not build: its error in Problems and a notification that goes to the line';

export const timeoutMs = 300_000;

const EXAMPLE = join(repoRoot, 'examples', 'go-guestbook');
const CONTROLLER = 'internal/controller/guestbook_controller.go';

/** Dependencies built once before the workbench opens (the broken build then fails in seconds). */
export function prepare() {
  const out = mkdtempSync(join(tmpdir(), 'controller-lab-build-error-ui-'));
  try {
    execFileSync('go', ['build', '-o', join(out, 'controller'), './cmd'], { cwd: EXAMPLE, stdio: ['ignore', 'ignore', 'inherit'], timeout: 900_000 });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** @param {ReturnType<typeof import('../workbench.mjs').workbench>} workbench */
export async function run(workbench) {
  const { page } = workbench;
  const project = mkdtempSync(join(tmpdir(), 'controller-lab-broken-'));
  cpSync(EXAMPLE, project, { recursive: true });
  const goMod = join(project, 'go.mod');
  writeFileSync(goMod, readFileSync(goMod, 'utf8').replace('=> ../../go', `=> ${join(repoRoot, 'go')}`));
  const file = join(project, CONTROLLER);
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('\tlog := logf.FromContext(ctx)')) + 2;
  assert.ok(at > 1, 'Reconcile starts with its logger');
  lines.splice(at - 1, 0, '\tundefinedThing()');
  writeFileSync(file, lines.join('\n'));

  await page.goto(`${new URL(page.url()).origin}/?folder=${encodeURIComponent(project)}`);
  await workbench.ready();
  const welcome = page.locator('.tab', { hasText: 'Welcome' });
  if (await welcome.first().waitFor({ timeout: 15_000 }).then(() => true, () => false)) {
    await runCommand(page, 'View: Close All Editors');
    await waitFor('the walkthrough to close', async () => (await welcome.count()) === 0, 10_000);
  }
  await openFile(page, file);
  await runCommand(page, 'Controller Lab: Debug Controller on Simulated Cluster');

  const toast = page.locator('.notification-toast', { hasText: 'could not build' }).first();
  await toast.waitFor({ state: 'visible', timeout: 180_000 });
  const said = (await toast.innerText()).replace(/\s+/g, ' ');
  assert.match(said, new RegExp(`guestbook_controller\\.go:${at}: undefined: undefinedThing`), said);
  await page.waitForTimeout(1000);
  assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no launch-error dialog');
  await workbench.screenshot('build-error');

  await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
  await waitFor('the build error in Problems', async () =>
    (await page.locator('.markers-panel .monaco-list-row').allInnerTexts()).some((r) => r.includes('undefined: undefinedThing')), 30_000);

  await toast.hover();
  await toast.locator('.monaco-button', { hasText: 'Go to Error' }).first().click();
  await waitFor(`the cursor on line ${at}`, async () => /Ln (\d+), Col \d+/.exec(await page.locator('.statusbar').innerText())?.[1] === String(at), 30_000);
  rmSync(project, { recursive: true, force: true });
  console.log(JSON.stringify({ said, line: at }));
}

// UI check: the Go example (examples/go-guestbook, a kubebuilder project) in the reconcile
// debugger of a real workbench, as its README walks through it. Opens that folder, starts
// "Guestbook (simulated cluster)" from its launch.json, waits for the stop before the first
// reconcile of Guestbook default/hello, expands the cached Object to the message the scenario
// created, and checks that the editor beside it shows Reconcile in guestbook_controller.go
// (go-reconcile.png). Then a line breakpoint in Reconcile under "… Go line breakpoints through
// Delve": Delve stops on that line, on a goroutine thread, and the Debug Console evaluates a Go
// expression there (go-line-breakpoint.png).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, repoRoot } from '../workbench.mjs';
import { callStackRows, expandVariable, startConfiguration, stopSession, variableRow, waitFor, widenSidebar } from '../debugView.mjs';

export const name = 'the Go example stops on a reconcile with its scopes beside the Go source, and on a .go line breakpoint through Delve';

/** Two sessions, one of them building for Delve and starting the program under dlv. */
export const timeoutMs = 420_000;

const EXAMPLE = join(repoRoot, 'examples', 'go-guestbook');
const CONTROLLER = 'internal/controller/guestbook_controller.go';
const MESSAGE = 'Hello from Controller Lab';

/**
 * Builds the program once before the workbench opens, as the debugger will (plain, and with Delve's
 * flags): a cold build of controller-runtime takes minutes here, the debugger's own build then
 * takes seconds from Go's build cache.
 */
export function prepare() {
  const out = mkdtempSync(join(tmpdir(), 'controller-lab-go-ui-'));
  try {
    for (const flags of [[], ['-gcflags=all=-N -l']]) {
      execFileSync('go', ['build', ...flags, '-o', join(out, 'controller'), './cmd'], { cwd: EXAMPLE, stdio: ['ignore', 'ignore', 'inherit'], timeout: 900_000 });
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The file the active editor shows (the window's title names it) and whether it marks the debugger's current line. */
async function activeEditor(page) {
  const title = await page.title();
  const current = await page.locator('.editor-group-container.active .monaco-editor').first()
    .locator('.debug-top-stack-frame-line, .codicon-debug-stackframe').count();
  return { title, showsCurrentLine: current > 0 };
}

/** @param {ReturnType<typeof import('../workbench.mjs').workbench>} workbench */
export async function run(workbench) {
  const { page } = workbench;
  const results = { ms: {} };
  const started = Date.now();
  const lap = (what) => (results.ms[what] = Date.now() - started);
  const source = readFileSync(join(EXAMPLE, CONTROLLER), 'utf8').split('\n');
  const reconcileLine = source.findIndex((l) => /^func \(r \*GuestbookReconciler\) Reconcile\(/.test(l)) + 1;
  const breakLine = source.findIndex((l) => l.includes('configMap := &corev1.ConfigMap{')) + 1;
  assert.ok(reconcileLine > 0 && breakLine > reconcileLine, 'the example has Reconcile and the line to break on');

  // Open the example as its README says: the folder itself, with its .vscode/launch.json.
  await page.goto(`${new URL(page.url()).origin}/?folder=${encodeURIComponent(EXAMPLE)}`);
  await workbench.ready();
  lap('folder open');
  // The walkthrough opens in a new folder's window and takes the keyboard: close it.
  const welcome = page.locator('.tab', { hasText: 'Welcome' });
  if (await welcome.first().waitFor({ timeout: 15_000 }).then(() => true, () => false)) {
    await runCommand(page, 'View: Close All Editors');
    await waitFor('the walkthrough to close', async () => (await welcome.count()) === 0, 10_000);
  }

  // 1. Stop before the first reconcile; the frame opens Reconcile in the editor.
  await startConfiguration(page, 'Guestbook (simulated cluster)');
  await page.locator('.part.auxiliarybar .action-label.codicon-close, .part.auxiliarybar [aria-label^="Hide"]').first().click({ timeout: 3000 }).catch(() => {});
  await widenSidebar(page, 640);
  results.entry = await waitFor(
    'the stop before the first reconcile',
    async () => (await callStackRows(page)).find((r) => /^reconcile Guestbook default\/hello #1\b/.test(r)),
    180_000,
  );
  lap('stopped before the first reconcile');
  await waitFor('the Object scope', async () => (await variableRow(page, 'Object').count()) > 0, 30_000);
  results.scopes = (await page.locator('.debug-variables .monaco-list-row[aria-level="1"]').allInnerTexts()).map((t) => t.trim());
  for (const s of ['Request', 'Object', 'Trigger', 'Queue', 'Writes', 'Result']) {
    assert.ok(results.scopes.some((t) => t.startsWith(s)), `scopes: ${results.scopes.join(' | ')}`);
  }
  await expandVariable(page, 'Request', false);
  await expandVariable(page, 'Object');
  await expandVariable(page, 'spec');
  const message = page.locator('.debug-variables .monaco-list-row', { has: page.locator('.monaco-tl-contents', { hasText: /^message\s*=/ }) }).first();
  await message.waitFor({ state: 'visible', timeout: 30_000 });
  results.message = (await message.innerText()).replace(/\s+/g, ' ').trim();
  assert.equal(results.message, `message = "${MESSAGE}"`);
  results.editor = await waitFor('the editor to show Reconcile', async () => {
    const editor = await activeEditor(page);
    return editor.title.startsWith('guestbook_controller.go') && editor.showsCurrentLine ? editor : undefined;
  }, 30_000);
  results.editorLine = await page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: 'func (r *GuestbookReconciler) Reconcile(' }).count();
  assert.equal(results.editorLine, 1, 'Reconcile is on screen');
  // More of the Go source on screen: the panel (Debug Console) closes for the picture.
  await runCommand(page, 'View: Hide Panel').catch(() => page.keyboard.press('Escape'));
  await page.locator('.debug-call-stack .monaco-list-row', { hasText: 'reconcile ' }).first().hover();
  await workbench.screenshot('go-reconcile');
  await stopSession(page);

  // 2. A line breakpoint in Reconcile, hit through Delve.
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  await editor.locator('.view-lines').first().click();
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.keyboard.type(String(breakLine));
  await page.keyboard.press('Enter');
  await page.keyboard.press('F9');
  await editor.locator('.codicon-debug-breakpoint, .codicon-debug-breakpoint-unverified').first().waitFor({ timeout: 10_000 });

  await startConfiguration(page, 'Guestbook (simulated cluster, Go line breakpoints through Delve)');
  const stopped = await waitFor(
    'Delve to stop on the breakpoint in Reconcile',
    async () => {
      const rows = await callStackRows(page);
      const thread = rows.find((r) => /^goroutine \d+ \(Go\)/.test(r));
      const frame = rows.find((r) => /Reconcile\b.*guestbook_controller\.go/.test(r));
      return thread && frame ? { thread, frame, rows } : undefined;
    },
    240_000,
  );
  lap('stopped by Delve');
  results.goThread = stopped.thread;
  results.goFrame = stopped.frame;
  assert.match(stopped.frame, new RegExp(`guestbook_controller\\.go ${breakLine}\\b`), `top frame: ${stopped.frame}`);
  await editor.locator('.codicon-debug-breakpoint-stackframe, .debug-top-stack-frame-line').first().waitFor({ timeout: 15_000 });
  assert.equal(await editor.locator('.codicon-debug-breakpoint-unverified').count(), 0, 'the breakpoint is verified');

  // Delve's locals, and a Go expression in the Debug Console.
  await waitFor('the Go locals', async () => (await variableRow(page, 'guestbook').count()) > 0, 30_000);
  await runCommand(page, 'Focus on Debug Console View');
  const replInput = page.locator('.repl-input-wrapper .monaco-editor').first();
  await replInput.waitFor({ state: 'visible', timeout: 10_000 });
  await replInput.click();
  await page.keyboard.type('guestbook.Spec.Message');
  await page.keyboard.press('Enter');
  results.console = await waitFor('the answer in the Debug Console', async () => {
    const rows = (await page.locator('.repl .monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    return rows.find((r) => r.includes(`"${MESSAGE}"`));
  }, 30_000);
  await workbench.screenshot('go-line-breakpoint');
  await stopSession(page);
  console.log(JSON.stringify({ reconcileLine, breakLine, ...results }, null, 2));
  return results;
}

/* global window -- functions passed to frame.evaluate run in the webview */
// UI check: Check Controller and Replay in Debugger in a real workbench (code-server in Chromium).
// A folder with the planted-bug controller (test/fixtures/plantedBug) and a launch configuration
// with "check": true; starting it runs the check (no debug session), the Check Findings view lists
// what it found, the first finding opened to its end state and the reconciles where its run went
// its own way (check-findings.png, for the README); the notification saying what it found offers
// Replay in Debugger and Show Findings. Replay in Debugger on that finding stops at the
// first reconcile after the perturbation, described by it, with the Debug Console saying what was
// done (check-replay.png); the timeline marks the perturbation (check-timeline.png).
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFile } from '../files.mjs';
import { repoRoot, runCommand } from '../workbench.mjs';
import { callStackRows, expandVariable, variableRow, waitFor, widenSidebar } from '../debugView.mjs';

export const name = 'Check Controller lists a planted bug in Check Findings, and Replay in Debugger stops where its run diverged';

const FIXTURE = join(repoRoot, 'test', 'fixtures', 'plantedBug');
const CHECK = 'Check child-maker (find bugs)';
const CRASH = 'killed right after `create ConfigMap default/web-*`, then restarted';

/** A folder as a user would have it: the controller, its scenario, types for the editor, a launch configuration. */
function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-check-ui-'));
  copyFileSync(join(FIXTURE, 'controller.ts'), join(dir, 'controller.ts'));
  copyFileSync(join(FIXTURE, 'scenario.yaml'), join(dir, 'scenario.yaml'));
  const examplesConfig = JSON.parse(readFileSync(join(repoRoot, 'examples/tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...examplesConfig, include: ['*.ts', join(repoRoot, 'types/controller-lab.d.ts')] }, null, 2));
  mkdirSync(join(dir, '.vscode'));
  writeFileSync(join(dir, '.vscode', 'launch.json'), JSON.stringify({
    version: '0.2.0',
    configurations: [
      { type: 'controller-lab', request: 'launch', name: CHECK, controller: '${workspaceFolder}/controller.ts', scenario: '${workspaceFolder}/scenario.yaml', check: true },
    ],
  }, null, 2));
  return dir;
}

/** The Check Findings view's pane in the side bar. */
function findingsPane(page) {
  return page.locator('.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Check Findings' }) }).first();
}

/** Its tree rows, whitespace folded. */
async function findingRows(page) {
  return (await findingsPane(page).locator('.monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
}

function findingRow(page, text) {
  return findingsPane(page).locator('.monaco-list-row', { hasText: text }).first();
}

/** Expands a tree row (a click toggles it; a row that is open stays so). */
async function expandRow(row) {
  if ((await row.getAttribute('aria-expanded')) === 'true') return;
  await row.click();
  await waitFor('the row to open', async () => (await row.getAttribute('aria-expanded')) === 'true', 10_000);
}

/** Shows the Controller Lab output channel in the panel; resolves with its first lines. */
async function showOutput(page) {
  await runCommand(page, 'Output: Show Output Channels...');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Controller Lab' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.type('Controller Lab');
  await page.keyboard.press('Enter');
  return waitFor('the report in the output', async () => {
    const text = (await page.locator('.part.panel .view-lines').allInnerTexts()).join('\n');
    return text.includes('FINDING 1 (intermediate-state)') ? text.slice(0, 300) : undefined;
  }, 20_000);
}

/** @param {ReturnType<typeof import('../workbench.mjs').workbench>} workbench */
export async function run(workbench) {
  const { page } = workbench;
  const results = {};
  const dir = workspace();
  await page.goto(`${new URL(page.url()).origin}/?folder=${encodeURIComponent(dir)}`);
  await workbench.ready();
  const welcome = page.locator('.tab', { hasText: 'Welcome' });
  // The walkthrough opens in a new folder's window: closed for the pictures (a tab left behind is no failure).
  if (await welcome.first().waitFor({ timeout: 15_000 }).then(() => true, () => false)) {
    await runCommand(page, 'View: Close All Editors').catch(() => page.keyboard.press('Escape'));
    await waitFor('the walkthrough to close', async () => (await welcome.count()) === 0, 10_000).catch(() => {});
  }
  // The controller beside the view, as a person checking it would have it open.
  await openFile(page, join(dir, 'controller.ts'));

  // 1. The launch configuration runs the check: a progress notification, no debug session.
  await runCommand(page, 'Debug: Select and Start Debugging');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: CHECK }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.type(CHECK);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: CHECK }).first().waitFor();
  await page.keyboard.press('Enter');
  results.progress = await waitFor('the check\'s progress notification', async () => {
    const toasts = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
    return toasts.find((t) => t.includes('Checking controller.ts'));
  }, 60_000);
  assert.equal(await page.locator('.debug-toolbar').count(), 0, 'no debug session started');

  // 2. Check Findings: the view's message says where the check stands, then the findings.
  await workbench.clickActivity('Controller Lab');
  await page.locator('.part.auxiliarybar .action-label.codicon-close, .part.auxiliarybar [aria-label^="Hide"]').first().click({ timeout: 3000 }).catch(() => {});
  const clusters = page.locator('.sidebar .pane-header', { hasText: 'Clusters' }).first();
  if ((await clusters.getAttribute('aria-expanded')) === 'true') await clusters.click();
  const findingsHeader = page.locator('.sidebar .pane-header', { hasText: 'Check Findings' }).first();
  await findingsHeader.waitFor({ timeout: 30_000 });
  if ((await findingsHeader.getAttribute('aria-expanded')) !== 'true') await findingsHeader.click();
  await widenSidebar(page, 760);
  results.message = await waitFor('the check to finish', async () => {
    const text = (await findingsPane(page).locator('.message').allInnerTexts()).join(' ');
    return /finding\(s\) .* in \d+ runs/.test(text) ? text.trim() : undefined;
  }, 180_000);
  // The verdict's notification goes to the findings: Replay in Debugger and Show Findings on it.
  const verdict = page.locator('.notifications-toasts .notification-toast', { hasText: /found \d+ bug\(s\)/ }).first();
  await verdict.waitFor({ state: 'visible', timeout: 30_000 });
  results.verdictActions = (await verdict.locator('.monaco-button').allInnerTexts()).map((t) => t.trim());
  for (const action of ['Replay in Debugger', 'Show Findings']) assert.ok(results.verdictActions.includes(action), `the verdict's actions: ${results.verdictActions.join(', ')}`);
  await verdict.locator('.monaco-button', { hasText: 'Show Findings' }).first().click();
  results.findings = await findingRows(page);
  const first = findingRow(page, `1. ${CRASH}`);
  await first.waitFor({ timeout: 10_000 });
  await expandRow(first);
  await expandRow(findingRow(page, 'End state against the reference runs'));
  await expandRow(findingRow(page, 'Where the run went its own way'));
  await expandRow(findingRow(page, 'after restart 1'));
  results.rows = await findingRows(page);
  for (const expected of ['Replay in Debugger', CRASH, '(not expected)', 'default/web', 'Replay command']) {
    assert.ok(results.rows.some((r) => r.includes(expected)), `rows: ${results.rows.join(' | ')}`);
  }
  // The report in the Controller Lab output, beside the view (the picture is fine without it).
  results.output = await showOutput(page).catch((err) => `not shown: ${err.message}`);
  await first.hover();
  await workbench.screenshot('check-findings');

  // 3. Replay in Debugger, from the finding's row: a session stopped after the perturbation.
  await first.hover();
  await first.locator('.action-label.codicon-debug-alt').first().click();
  await page.locator('.debug-toolbar').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.activitybar [aria-label^="Run and Debug"]').first().click();
  await page.locator('.debug-call-stack').first().waitFor({ state: 'visible', timeout: 30_000 });
  await widenSidebar(page, 760);
  results.stack = await waitFor('the replay\'s stop in the call stack', async () => {
    const rows = await callStackRows(page);
    return rows.some((r) => /^reconcile ConfigMap default\/web #\d+/.test(r)) ? rows : undefined;
  }, 90_000);
  // The stop's description: what was done, at the head of the call stack.
  results.paused = (await page.locator('.pane-header', { hasText: 'Call Stack' }).first().innerText()).replace(/\s+/g, ' ').trim();
  assert.match(results.paused, /Replaying a check finding: killed right after `create ConfigMap default\/web-\*`, then restarted/);
  await waitFor('the Object scope', async () => (await variableRow(page, 'Object').count()) > 0, 30_000);
  await expandVariable(page, 'Request', false);
  await expandVariable(page, 'Object');
  await expandVariable(page, 'metadata');
  await runCommand(page, 'Focus on Debug Console View');
  results.console = await waitFor('the replay in the Debug Console', async () => {
    const rows = (await page.locator('.repl .monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    return rows.some((r) => /started again/.test(r)) ? rows.filter((r) => /Replaying|started again/.test(r)) : undefined;
  }, 20_000);
  // Said in the Debug Console, not raised as notifications.
  const toasts = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
  assert.ok(!toasts.some((t) => /started again|Replaying/.test(t)), `notifications: ${toasts.join(' | ')}`);
  await page.locator('.debug-call-stack .monaco-list-row', { hasText: 'reconcile ' }).first().hover();
  await workbench.screenshot('check-replay');

  // 4. The timeline marks the perturbation (what was done, at its resourceVersion).
  await runCommand(page, 'Controller Lab: Open Timeline');
  const frame = await waitFor('the timeline webview', async () => {
    for (const f of page.frames()) if (await f.locator('#event-count').count().catch(() => 0)) return f;
    return undefined;
  }, 30_000);
  results.perturbation = await waitFor('the perturbation on the timeline', () =>
    frame.evaluate(() => {
      for (const lane of window.timelineDebug.state().store.lanes) for (const e of lane.events) if (e.type === 'PERTURBATION') return `${e.note} · rv ${e.resourceVersion}`;
      return undefined;
    }), 30_000);
  assert.match(results.perturbation, /^killed right after `create ConfigMap default\/web-\*`, then restarted · rv \d+$/);
  await workbench.screenshot('check-timeline');
  console.log(JSON.stringify(results, null, 2));
  return results;
}

// UI check: the reconcile debugger in a real workbench (code-server in Chromium). Debugs the
// replicaset example on a simulated cluster with "Controller Lab: Debug Controller on Simulated
// Cluster", steps to the second reconcile, expands the cached object in the Variables view, and
// screenshots the stopped session (test-output/screenshots/debugger.png, for the README). Then the
// Debug Console (debug-console.png) and Step Into down to the reconcile's code (step-into.png); the
// tree's Controllers row names the session's own simulated cluster.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandVariable, variableRow, waitFor, widenSidebar } from '../debugView.mjs';
import { runCommand } from '../workbench.mjs';

export const name = 'the reconcile debugger stops on a reconcile and shows its scopes';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SCREENSHOTS = join(root, 'test-output', 'screenshots');

function pageOf(workbench) {
  return workbench.page ?? workbench;
}

/** The reconcile frames in the call stack, top first (a failed reconcile stays listed above the next one). */
async function reconcileFrames(page) {
  const rows = await page.locator('.debug-call-stack .monaco-list-row').allTextContents();
  return rows.map((r) => r.trim().replace(/controller\.ts\d*$/, '')).filter((r) => r.startsWith('reconcile '));
}

/** The call stack's top reconcile frame, e.g. `reconcile ReplicaSet default/web #2 · …`. */
async function stoppedFrame(page) {
  return (await reconcileFrames(page))[0];
}

export async function run(workbench) {
  const page = pageOf(workbench);
  mkdirSync(SCREENSHOTS, { recursive: true });
  const results = {};

  // The example controller and its scenario, side by side in a temp folder (the command picks up
  // scenario.yaml next to the controller).
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-debug-ui-'));
  const controller = join(dir, 'controller.ts');
  copyFileSync(join(root, 'examples/replicaset-controller/controller.ts'), controller);
  copyFileSync(join(root, 'examples/replicaset-controller/scenario.yaml'), join(dir, 'scenario.yaml'));
  // As in examples/: the editor finds the 'controller-lab' types (no problems in the screenshots).
  const examplesConfig = JSON.parse(readFileSync(join(root, 'examples/tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...examplesConfig, include: ['*.ts', join(root, 'types/controller-lab.d.ts')] }, null, 2));

  await page.keyboard.press('Control+P');
  const quickOpen = page.locator('.quick-input-widget input');
  await quickOpen.waitFor({ state: 'visible' });
  await quickOpen.fill(controller);
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab', { hasText: 'controller.ts' }).first().waitFor();
  // The command debugs the active editor: make sure the controller's editor has focus, not a
  // quick-open list still closing.
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();

  await runCommand(page, 'Controller Lab: Debug Controller on Simulated Cluster');
  // The Run and Debug view: call stack (workers as threads, reconciles as frames) and variables.
  await page.locator('.debug-toolbar').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.activitybar [aria-label^="Run and Debug"]').first().click();
  await page.locator('.debug-call-stack').first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.locator('.part.auxiliarybar .action-label.codicon-close, .part.auxiliarybar [aria-label^="Hide"]').first().click({ timeout: 3000 }).catch(() => {});
  await widenSidebar(page, 640);
  results.entry = await waitFor('the entry stop in the call stack', () => stoppedFrame(page), 90_000);
  if (!/^reconcile ReplicaSet default\/\w+ #1 · ADDED rv \d+/.test(results.entry)) throw new Error(`entry frame: ${results.entry}`);

  // The Request scope names the reconcile the Variables view shows.
  const shownReconcile = async () => {
    if ((await variableRow(page, 'Request').getAttribute('aria-expanded', { timeout: 1000 })) !== 'true') await expandVariable(page, 'Request');
    return (await variableRow(page, 'reconcileId').innerText({ timeout: 1000 })).replace(/\s+/g, ' ').trim();
  };
  const entryReconcile = await waitFor('the entry reconcile in the Variables view', shownReconcile, 30_000);

  // Step Over: the first reconcile runs, the debugger stops at the next one.
  await page.keyboard.press('F10');
  results.next = await waitFor('the second reconcile', async () => (await reconcileFrames(page)).find((f) => f.includes('#2 ')));
  // The call stack shows the new stop at once, the Variables view only some 400 ms later (it waits
  // for stepping to settle): until then it still shows the entry's scopes, and whatever is expanded
  // there is gone when it switches. Wait for it to show the second reconcile.
  await waitFor('the Variables view to show the second reconcile', async () => {
    const now = await shownReconcile();
    return now !== entryReconcile;
  }, 30_000);

  // Variables: the scopes, the cached object expanded to its spec.
  await waitFor('the Object scope', async () => (await variableRow(page, 'Object').count()) > 0);
  results.scopes = (await page.locator('.debug-variables .monaco-list-row[aria-level="1"]').allTextContents()).map((t) => t.trim());
  for (const s of ['Request', 'Object', 'Trigger', 'Queue', 'Writes', 'Result']) {
    if (!results.scopes.some((t) => t.startsWith(s))) throw new Error(`scopes: ${results.scopes.join(' | ')}`);
  }
  // Collapse Request (expanded by default) so the object fits: the Variables pane's Collapse All.
  await page.locator('.pane-header', { hasText: 'Variables' }).first().hover();
  await page.locator('.pane-header', { hasText: 'Variables' }).first().locator('.codicon-collapse-all').first().click({ timeout: 5000 }).catch(() => expandVariable(page, 'Request', false));
  await page.locator('.debug-pane-header, .pane-header', { hasText: 'Watch' }).first().click().catch(() => {});
  await expandVariable(page, 'Object');
  await expandVariable(page, 'spec');
  const replicas = page.locator('.debug-variables .monaco-list-row', { has: page.locator('.monaco-tl-contents', { hasText: /^replicas\s*=\s*\d+$/ }) }).first();
  await replicas.waitFor({ state: 'visible', timeout: 30_000 });
  results.replicas = (await replicas.textContent())?.trim();
  await page.locator('.debug-call-stack .monaco-list-row', { hasText: 'reconcile ' }).first().hover();

  await page.screenshot({ path: join(SCREENSHOTS, 'debugger.png') });

  // Debug Console: `req` is what the Request scope shows; a bad expression is an error line there,
  // not a notification.
  const key = /^reconcile ReplicaSet (\S+) #2/.exec(results.next)?.[1];
  await runCommand(page, 'Focus on Debug Console View');
  const replInput = page.locator('.repl-input-wrapper .monaco-editor').first();
  await replInput.waitFor({ state: 'visible', timeout: 10_000 });
  const replRows = () => page.locator('.repl .monaco-list-row').allInnerTexts();
  for (const expression of ['req.key', 'nosuch.thing']) {
    await replInput.click();
    await page.keyboard.type(expression);
    await page.keyboard.press('Enter');
  }
  results.console = await waitFor('both answers in the Debug Console', async () => {
    const rows = (await replRows()).map((r) => r.replace(/\s+/g, ' ').trim());
    return rows.some((r) => r.includes(`"${key}"`)) && rows.some((r) => r.includes('ReferenceError: nosuch is not defined')) ? rows : undefined;
  }, 20_000);
  await page.waitForTimeout(500);
  const toasts = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
  await page.screenshot({ path: join(SCREENSHOTS, 'debug-console.png') });
  if (toasts.some((t) => t.includes('nosuch'))) throw new Error(`the bad expression raised a notification: ${toasts.join(' | ')}`);

  // Step Into: the JavaScript debugger attaches to the controller process, which pauses just before
  // it calls reconcile; a step or two later the stack runs through reconcile in controller.ts.
  await page.locator('.debug-call-stack .monaco-list-row', { hasText: 'reconcile ' }).first().click();
  await page.keyboard.press('F11');
  const jsPaused = () => page.locator('.debug-call-stack .monaco-list-row', { hasText: /Paused on (debugger statement|step|breakpoint)/i }).count();
  await waitFor('the JavaScript debugger to pause in the controller process', async () => (await jsPaused()) > 0, 90_000);
  /** The frames of the paused JavaScript session (the rows under its "… (JavaScript) Paused …" row). */
  const jsFrames = async () => {
    const rows = (await page.locator('.debug-call-stack .monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    const sessions = rows.filter((r) => /\(JavaScript\)/.test(r));
    if (sessions.length > 1) throw new Error(`one JavaScript session expected: ${sessions.join(' | ')}`);
    const at = rows.findIndex((r) => /\(JavaScript\).*Paused/i.test(r));
    return at >= 0 && rows[at + 1] ? rows.slice(at + 1) : undefined;
  };
  const reconcileFrame = (frames) => frames.find((f) => /\breconcile\b.*controller\.ts ?\d+:\d+/.test(f));
  const position = (frames) => (frames[0] ?? '').replace(/\s+/g, '');
  let frames = await waitFor('the paused frames', jsFrames, 30_000);
  results.stepIntoPath = [frames[0]];
  // The controller process pauses just before it calls reconcile; Step Into goes on from there.
  for (let i = 0; i < 4 && !reconcileFrame(frames); i++) {
    const before = position(frames);
    await page.keyboard.press('F11');
    frames = await waitFor('the step to land', async () => {
      const now = await jsFrames();
      return now && position(now) !== before ? now : undefined;
    }, 60_000);
    results.stepIntoPath.push(frames[0]);
  }
  results.stepInto = reconcileFrame(frames);
  if (!results.stepInto) throw new Error(`Step Into did not reach reconcile in controller.ts: ${results.stepIntoPath.join(' → ')}`);
  await page.screenshot({ path: join(SCREENSHOTS, 'step-into.png') });

  // The Controllers row says the session runs on a cluster of its own, not the one whose objects
  // the Clusters rows show.
  await workbench.clickActivity('Controller Lab');
  results.controllerRow = await waitFor('the controller\'s row to name its own cluster', async () =>
    (await workbench.treeRows()).map((r) => r.replace(/\s+/g, ' ').trim()).find((r) => /own cluster 127\.0\.0\.1:\d+/.test(r)), 30_000);
  await page.screenshot({ path: join(SCREENSHOTS, 'controller-own-cluster.png') });

  await page.keyboard.press('Shift+F5');
  await waitFor('the session to end', async () => (await page.locator('.debug-toolbar').count()) === 0 || !(await page.locator('.debug-toolbar').isVisible()), 30_000);
  console.log(JSON.stringify(results, null, 2));
  return results;
}

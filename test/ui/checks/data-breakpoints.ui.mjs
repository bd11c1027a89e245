// UI check: data breakpoints in a real workbench (code-server in Chromium). A function breakpoint
// typed in the Breakpoints view, `ReplicaSet default/web .spec.replicas == 1`, stops the replicaset
// example where the scenario scaled web to 1, with the Data Breakpoint scope showing before and
// after (test-output/screenshots/data-breakpoint.png). Then "Break on Value Change" on a field of
// the Object scope adds a DAP data breakpoint, listed in the Breakpoints view (break-on-value-change.png).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callStackRows, expandVariable, variableRow, waitFor, widenSidebar } from '../debugView.mjs';
import { runCommand } from '../workbench.mjs';

export const name = 'a data breakpoint stops where a watched field changed and shows before and after';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SCREENSHOTS = join(root, 'test-output', 'screenshots');
const WATCH = 'ReplicaSet default/web .spec.replicas == 1';

// web is scaled from outside twice (3 → 2 → 1): the condition picks the second change.
const SCENARIO = `seed: 3
objects:
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: { name: web, namespace: default, labels: { app: web } }
    spec:
      replicas: 3
      selector: { matchLabels: { app: web } }
      template: { metadata: { labels: { app: web } }, spec: { containers: [{ name: web, image: "nginx:1.25" }] } }
steps:
  - at: 1s
    patch: { target: { apiVersion: apps/v1, kind: ReplicaSet, namespace: default, name: web }, patch: { spec: { replicas: 2 } } }
  - after: 1s
    patch: { target: { apiVersion: apps/v1, kind: ReplicaSet, namespace: default, name: web }, patch: { spec: { replicas: 1 } } }
`;

const rowsOf = async (page, selector) => (await page.locator(`${selector} .monaco-list-row`).allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());

export async function run(workbench) {
  const page = workbench.page ?? workbench;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const results = {};

  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-databp-ui-'));
  const controller = join(dir, 'controller.ts');
  copyFileSync(join(root, 'examples/replicaset-controller/controller.ts'), controller);
  writeFileSync(join(dir, 'scenario.yaml'), SCENARIO);
  const examplesConfig = JSON.parse(readFileSync(join(root, 'examples/tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...examplesConfig, include: ['*.ts', join(root, 'types/controller-lab.d.ts')] }, null, 2));

  await page.keyboard.press('Control+P');
  const quickOpen = page.locator('.quick-input-widget input');
  await quickOpen.waitFor({ state: 'visible' });
  await quickOpen.fill(controller);
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab', { hasText: 'controller.ts' }).first().waitFor();

  // The data breakpoint, typed as a function breakpoint (the Breakpoints view's +) before the
  // session starts. A workbench still settling may take the input's focus away: try again then.
  await workbench.clickActivity('Run and Debug');
  const header = page.locator('.pane-header', { hasText: 'Breakpoints' }).first();
  const input = page.locator('.debug-breakpoints .monaco-inputbox input').first();
  for (let attempt = 1; ; attempt++) {
    await header.hover();
    await header.locator('.action-label[aria-label*="Function Breakpoint"]').first().click({ timeout: 15_000 });
    try {
      await input.waitFor({ state: 'visible', timeout: 5000 });
      await input.fill(WATCH, { timeout: 5000 });
      await page.keyboard.press('Enter');
      await waitFor('the breakpoint in the Breakpoints view', async () => (await rowsOf(page, '.debug-breakpoints')).some((r) => r.includes('ReplicaSet default/web')), 5000);
      break;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
  results.typed = await rowsOf(page, '.debug-breakpoints');

  // The command debugs the active editor.
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await runCommand(page, 'Controller Lab: Debug Controller on Simulated Cluster');
  await page.locator('.debug-toolbar').first().waitFor({ state: 'visible', timeout: 60_000 });
  await workbench.clickActivity('Run and Debug');
  await page.locator('.debug-call-stack').first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.locator('.part.auxiliarybar .action-label.codicon-close, .part.auxiliarybar [aria-label^="Hide"]').first().click({ timeout: 3000 }).catch(() => {});
  await widenSidebar(page, 640);
  results.entry = await waitFor('the entry stop', async () => (await callStackRows(page)).find((r) => r.startsWith('reconcile ')), 90_000);

  // Continue: the scenario scales web 3 → 2 (the condition does not hold), then 2 → 1: a stop.
  await page.keyboard.press('F5');
  // One thread: the Call Stack's header carries the stop's description.
  const callStackHeader = () => page.locator('.pane-header', { hasText: 'Call Stack' }).first().innerText();
  results.stop = await waitFor('the data breakpoint stop', async () => {
    const text = (await callStackHeader()).replace(/\s+/g, ' ');
    return /ReplicaSet default\/web \.spec\.replicas: 2 → 1 \(rv \d+\), outside the controller/.test(text) ? text : undefined;
  }, 60_000);
  results.frame = await waitFor('the stopped frame', async () => (await callStackRows(page)).find((r) => /^reconcile ReplicaSet default\/web #\d+ · MODIFIED rv \d+/.test(r)), 30_000);

  // The Data Breakpoint scope: the field's value before and after, and who changed it.
  await waitFor('the Data Breakpoint scope', async () => (await variableRow(page, 'Data Breakpoint').count()) > 0, 30_000);
  await page.locator('.pane-header', { hasText: 'Variables' }).first().hover();
  await page.locator('.pane-header', { hasText: 'Variables' }).first().locator('.codicon-collapse-all').first().click({ timeout: 5000 }).catch(() => {});
  await expandVariable(page, 'Data Breakpoint');
  await expandVariable(page, 'ReplicaSet');
  results.change = await waitFor('before and after', async () => {
    const rows = await rowsOf(page, '.debug-variables');
    return rows.some((r) => /^before = 2$/.test(r)) && rows.some((r) => /^after = 1$/.test(r)) ? rows : undefined;
  }, 30_000);
  results.breakpoints = await rowsOf(page, '.debug-breakpoints');
  await page.screenshot({ path: join(SCREENSHOTS, 'data-breakpoint.png') });

  // Break on Value Change on Object › spec › replicas: a DAP data breakpoint, listed by its text.
  await expandVariable(page, 'Data Breakpoint', false);
  await expandVariable(page, 'Object');
  await expandVariable(page, 'spec');
  const replicas = page.locator('.debug-variables .monaco-list-row', { has: page.locator('.monaco-tl-contents', { hasText: /^replicas\s*=\s*\d+$/ }) }).first();
  await replicas.click({ button: 'right' });
  const item = page.getByRole('menuitem', { name: 'Break on Value Change' }).first();
  await item.waitFor({ state: 'visible', timeout: 15_000 });
  await item.hover();
  await page.keyboard.press('Enter');
  results.dataBreakpoints = await waitFor('the data breakpoint in the Breakpoints view', async () => {
    const rows = await rowsOf(page, '.debug-breakpoints');
    return rows.some((r) => r.includes('ReplicaSet default/web .spec.replicas') && !r.includes('== 1')) ? rows : undefined;
  }, 15_000);
  await page.screenshot({ path: join(SCREENSHOTS, 'break-on-value-change.png') });

  await page.keyboard.press('Shift+F5');
  await waitFor('the session to end', async () => (await page.locator('.debug-toolbar').count()) === 0 || !(await page.locator('.debug-toolbar').isVisible()), 30_000);
  console.log(JSON.stringify(results, null, 2));
  return results;
}

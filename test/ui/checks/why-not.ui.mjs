/* global window, document -- functions passed to frame.evaluate run in the webview */
// UI check: "Why (not)?" in a real workbench (code-server in Chromium). The why-not fixture
// controller (test/fixtures/whyNot) runs on its scenario; on the timeline the paused Deployment
// api's scale-up (a miss: NotPaused filtered it) is selected and its details' Why (not)? asked;
// the answer shows in the "Controller Lab: Why (Not)?" output channel, each step on its line, the
// predicate named (test-output/screenshots/why-not.png).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openFile } from '../files.mjs';
import { waitFor } from '../debugView.mjs';
import { timelineFrame } from '../timelineView.mjs';
import { runCommand, tryCommand } from '../workbench.mjs';

export const name = 'why (not)? on a timeline event answers in the output channel, step by step';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SCREENSHOTS = join(root, 'test-output', 'screenshots');
const FIXTURE = join(root, 'test/fixtures/whyNot');
// The timeline's geometry (webview/timeline): the lane labels' width, the time axis, a lane's row.
const LABELS = 240;
const AXIS = 22;
const ROW = 20;

/** The output panel's text, as its editor shows it (the visible lines). */
async function outputText(page) {
  return (await page.locator('.part.panel .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
}

export async function run(workbench) {
  const page = workbench.page ?? workbench;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const results = {};

  await tryCommand(page, 'View: Close All Editors');
  await tryCommand(page, 'View: Hide Panel');
  await page.locator('.part.auxiliarybar .action-label.codicon-close, .part.auxiliarybar [aria-label^="Hide"]').first().click({ timeout: 3000 }).catch(() => {});

  // The fixture controller with its scenario next to it (Run loads scenario.yaml from there).
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-why-ui-'));
  const controller = join(dir, 'controller.ts');
  copyFileSync(join(FIXTURE, 'controller.ts'), controller);
  copyFileSync(join(FIXTURE, 'scenario.yaml'), join(dir, 'scenario.yaml'));
  const examplesConfig = JSON.parse(readFileSync(join(root, 'examples/tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...examplesConfig, include: ['*.ts', join(root, 'types/controller-lab.d.ts')] }, null, 2));

  await openFile(page, controller);
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await runCommand(page, 'Controller Lab: Run Controller on Simulated Cluster');

  // The timeline follows the run: the scale-up of the paused Deployment api is a miss (NotPaused).
  await runCommand(page, 'Controller Lab: Open Timeline');
  const frame = await timelineFrame(page);
  const missOf = () =>
    frame.evaluate(() => {
      for (const lane of window.timelineDebug.state().store.lanes) {
        const miss = lane.events.find((e) => e.type === 'MISSED' && e.name === 'api' && /NotPaused/.test(e.note ?? ''));
        if (miss) return { seq: miss.seq, note: miss.note, resourceVersion: miss.resourceVersion };
      }
      return undefined;
    });
  results.miss = await waitFor('the miss of api\'s scale-up on the timeline', missOf, 120_000);

  // Room for the timeline, its details and the answer under them.
  await tryCommand(page, 'View: Close Primary Side Bar');

  // Select the miss: the name filter leaves api's lanes, the timeline held still (following live,
  // events move left between measuring where the miss is and clicking it), then a click on it.
  await frame.locator('#filter-name input').fill('api');
  await frame.locator('#follow').click();
  await waitFor('the timeline held still', async () => (await frame.evaluate(() => window.timelineDebug.state().follow)) === false);
  const at = await frame.evaluate(({ seq, labels }) => {
    const s = window.timelineDebug.state();
    const index = s.view.lanes.findIndex((l) => l.events.some((e) => e.seq === seq));
    const miss = s.view.lanes[index].events.find((e) => e.seq === seq);
    const width = document.getElementById('lanes').getBoundingClientRect().width - labels;
    return { index, x: labels + ((miss.at - s.viewport.start) / (s.viewport.end - s.viewport.start)) * width };
  }, { seq: results.miss.seq, labels: LABELS });
  const lanes = await frame.locator('#lanes').boundingBox();
  const y = lanes.y + AXIS + ROW * at.index + ROW / 2;
  // A click on the selected event unselects it: start from none.
  await page.mouse.click(lanes.x + LABELS + 20, lanes.y + lanes.height - 10);
  await page.mouse.click(lanes.x + at.x, y);
  results.selected = await waitFor('the miss selected', async () => {
    const text = (await frame.locator('#details').innerText()).replace(/\s+/g, ' ');
    return /enqueued nothing/.test(text) ? text.slice(0, 160) : undefined;
  }, 15_000);
  await frame.getByText('Why (not)?', { exact: true }).click();

  // The answer, in the output channel in the panel under the timeline: each step on its line.
  results.answer = await waitFor('every step of the answer in the output channel', async () => {
    const text = await outputText(page);
    return /^Why \(not\)\? Deployment default\/api$/m.test(text) && /Filtered\? yes \(For\), by predicate NotPaused: it returned false, so nothing was enqueued/.test(text) && /app-config: not reconciled/.test(text) ? text : undefined;
  }, 30_000);
  if (!new RegExp(`rv ${results.miss.resourceVersion}`).test(results.answer)) throw new Error(`the answer is not about rv ${results.miss.resourceVersion}:\n${results.answer}`);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOTS, 'why-not.png') });

  console.log(JSON.stringify(results, null, 2));
  return results;
}

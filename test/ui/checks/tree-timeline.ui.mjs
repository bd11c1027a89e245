/* global window, requestAnimationFrame -- functions passed to frame.evaluate run in the webview */
// UI check: the Clusters tree and the timeline webview in a real workbench (code-server in
// Chromium). Runs a scripted scenario on the simulated cluster, screenshots the tree and the
// timeline into test-output/screenshots/, and asserts the webview's DOM: the event count, a filter
// applied, a selected event's diff. Also records requestAnimationFrame intervals in the webview
// while zooming and panning.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand, tryCommand } from '../workbench.mjs';
import { chooseFile } from '../files.mjs';
import { timelineFrame } from '../timelineView.mjs';

export const name = 'tree and timeline show a scenario live';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SCREENSHOTS = join(root, 'test-output', 'screenshots');

const SCENARIO = `# UI check: churn, a delete, then events held back while history is compacted and watches drop:
# the informer resumes from a compacted resourceVersion, gets 410 Expired, and relists.
seed: 3
objects:
  - apiVersion: v1
    kind: Namespace
    metadata: { name: ui-demo }
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: frontend, namespace: ui-demo, labels: { app: frontend } }
    data: { version: v0 }
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: backend, namespace: ui-demo, labels: { app: backend } }
    data: { version: v0 }
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: cache, namespace: ui-demo }
    data: { size: 64Mi }
  - apiVersion: apps/v1
    kind: Deployment
    metadata: { name: web, namespace: ui-demo, labels: { app: web } }
    spec:
      replicas: 1
      selector: { matchLabels: { app: web } }
      template:
        metadata: { labels: { app: web } }
        spec: { containers: [{ name: web, image: nginx:1.27 }] }
steps:
  - at: 1s
    repeat:
      count: 24
      over: 3s
      step:
        patch:
          target: { kind: ConfigMap, namespace: ui-demo, name: frontend }
          patch: { data: { version: "v\${i}" } }
  - after: 500ms
    scale: { kind: Deployment, namespace: ui-demo, name: web, replicas: 3 }
  - after: 500ms
    create:
      apiVersion: v1
      kind: ConfigMap
      metadata: { name: temp, namespace: ui-demo }
      data: { short: lived }
  - after: 1s
    delete: { kind: ConfigMap, namespace: ui-demo, name: temp }
  - after: 1s
    withholdEvents: true
  - after: 200ms
    patch:
      target: { kind: ConfigMap, namespace: ui-demo, name: backend }
      patch: { data: { version: v1 } }
  - after: 200ms
    compact: now
  - after: 0s
    dropWatches: true
  - after: 0s
    releaseEvents: true
  - after: 1s
    patch:
      target: { kind: ConfigMap, namespace: ui-demo, name: backend }
      patch: { data: { version: v2 } }
`;

// 100,000 watch events end to end: 1,000 ConfigMaps, then 99,000 random updates over 15 s, through
// the sim's HTTPS watch, the informer, the host's ring and batched posts into the webview.
const LOAD_SCENARIO = `seed: 11
objects:
  - apiVersion: v1
    kind: Namespace
    metadata: { name: ui-load }
steps:
  - at: 0s
    repeat:
      count: 1000
      over: 1s
      step:
        create:
          apiVersion: v1
          kind: ConfigMap
          metadata: { name: "load-\${i}", namespace: ui-load }
          data: { value: "0" }
  - after: 1500ms
    repeat:
      count: 99000
      over: 15s
      step:
        patch:
          target: { kind: ConfigMap, namespace: ui-load, name: "\${random}" }
          patch: { data: { value: "\${rand}" } }
`;

/** rAF intervals and the app's draw times in a webview frame while `interact` runs. */
async function measureFrames(page, frame, interact) {
  await frame.evaluate(() => {
    window.__intervals = [];
    let last = performance.now();
    window.__sampling = true;
    const tick = (t) => { window.__intervals.push(t - last); last = t; if (window.__sampling) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    window.timelineDebug.frameTimes.length = 0;
  });
  await interact();
  return frame.evaluate(() => {
    window.__sampling = false;
    const iv = window.__intervals.slice(1).sort((a, b) => a - b);
    const draws = [...window.timelineDebug.frameTimes].sort((a, b) => a - b);
    const pct = (a, p) => (a.length ? +a[Math.min(a.length - 1, Math.floor(a.length * p))].toFixed(1) : 0);
    return { frames: iv.length, intervalMedianMs: pct(iv, 0.5), intervalP95Ms: pct(iv, 0.95), drawMedianMs: pct(draws, 0.5), drawP95Ms: pct(draws, 0.95) };
  });
}

async function zoomAndPan(page, box) {
  const x = box.x + box.width * 0.7;
  const y = box.y + box.height * 0.4;
  await page.mouse.move(x, y);
  for (let i = 0; i < 20; i++) { await page.mouse.wheel(0, i < 10 ? -100 : 100); await page.waitForTimeout(16); }
  await page.mouse.down();
  for (let i = 0; i < 30; i++) { await page.mouse.move(x - i * 6, y + (i % 5) * 4); await page.waitForTimeout(16); }
  await page.mouse.up();
}

function pageOf(workbench) {
  return workbench.page ?? workbench;
}


async function pickQuickItem(page, text) {
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ state: 'visible' });
  await row.click();
}

function treeRow(page, label) {
  return page.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) }).first();
}

async function expand(page, label) {
  const row = treeRow(page, label);
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
}

async function waitFor(what, probe, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Drags the sidebar's sash so descriptions (RVs, health) are not cut off in the screenshot. */
async function widenSidebar(page, width, narrowing = false) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || (!narrowing && box.width >= width)) return;
  const x = box.x + box.width + 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
}


export async function run(workbench) {
  const page = pageOf(workbench);
  mkdirSync(SCREENSHOTS, { recursive: true });
  const results = {};

  // 0. A clean layout for the screenshots: earlier checks may have left editors and panels open.
  await tryCommand(page, 'View: Close All Editors');
  await tryCommand(page, 'View: Hide Panel');

  // 1. Open the view: the simulated cluster starts with its default informers.
  await page.locator('.part.auxiliarybar .action-label.codicon-close, .part.auxiliarybar [aria-label^="Hide"]').first().click({ timeout: 3000 }).catch(() => {});
  await page.locator('.activitybar [aria-label^="Controller Lab"]').first().click();
  await treeRow(page, 'Simulated cluster').waitFor({ state: 'visible', timeout: 60_000 });
  await waitFor('configmaps synced', async () => /synced/.test((await treeRow(page, 'configmaps').textContent()) ?? ''));

  // 1b. Watch Resource… through its quick picks: resource, namespace, label selector.
  await runCommand(page, 'Controller Lab: Watch Resource…');
  await page.locator('.quick-input-widget input').fill('secrets');
  await pickQuickItem(page, 'v1 · Secret');
  await pickQuickItem(page, 'All namespaces');
  await page.locator('.quick-input-widget', { hasText: 'Label selector for secrets' }).waitFor({ state: 'visible' });
  await page.keyboard.press('Enter'); // no label selector
  await waitFor('secrets informer synced', async () => /synced/.test((await treeRow(page, 'secrets').textContent()) ?? ''));

  // 2. Load the scenario from the editor (the command offers the open YAML file first). The files
  // live in a folder of their own: VS Code's file dialog lists the folder it is in, and a crowded
  // /tmp (thousands of entries) stalls it.
  const scenarios = mkdtempSync(join(tmpdir(), 'controller-lab-ui-'));
  const file = join(scenarios, `controller-lab-ui-${process.pid}.yaml`);
  writeFileSync(file, SCENARIO);
  // VS Code's own file dialog (code-server has no native one): type the absolute path.
  await runCommand(page, 'File: Open File...');
  await chooseFile(page, 'Open File', file);
  await page.locator('.tab', { hasText: 'controller-lab-ui-' }).first().waitFor();
  await runCommand(page, 'Controller Lab: Load Scenario…');
  await pickQuickItem(page, 'the file in the editor');

  // 3. The tree follows: the scenario's namespace, its objects and their resourceVersions.
  await expand(page, 'configmaps');
  await expand(page, 'ui-demo');
  const frontend = treeRow(page, 'frontend');
  await waitFor('frontend modified', async () => /rv \d+ · MODIFIED/.test((await frontend.textContent()) ?? ''));
  await waitFor('the 410 relist to show in the informer row', async () => /410 × \d/.test((await treeRow(page, 'configmaps').textContent()) ?? ''), 40_000);
  await waitFor('backend updated after the relist', async () => /MODIFIED/.test((await treeRow(page, 'backend').textContent()) ?? ''), 40_000);
  results.frontendRow = (await frontend.textContent())?.trim();
  results.informerRow = (await treeRow(page, 'configmaps').textContent())?.trim();
  await expand(page, 'Clients');
  await widenSidebar(page, 560);
  await frontend.hover();
  await page.screenshot({ path: join(SCREENSHOTS, 'tree.png') });

  // 3b. Clicking an object opens its live YAML; the palette command diffs it with its previous version.
  await frontend.click();
  await page.locator('.tab', { hasText: 'frontend.yaml' }).first().waitFor();
  await page.locator('.view-lines', { hasText: 'live from informer' }).first().waitFor();
  await page.screenshot({ path: join(SCREENSHOTS, 'object-document.png') });
  await runCommand(page, 'Controller Lab: Compare with Previous Version');
  await page.locator('.tab', { hasText: '↔' }).first().waitFor();
  await page.locator('.monaco-diff-editor').first().waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(SCREENSHOTS, 'diff.png') });

  // 4. The timeline: events arrive, a filter narrows them, a selected event shows its diff.
  await runCommand(page, 'Controller Lab: Open Timeline');
  const frame = await timelineFrame(page);
  const count = frame.locator('#event-count');
  await waitFor('events in the timeline', async () => Number((await count.getAttribute('data-total')) ?? 0) >= 30);
  results.total = Number(await count.getAttribute('data-total'));
  results.lanes = await frame.evaluate(() => window.timelineDebug.state().view.lanes.map((l) => l.name || `⟳ ${l.informer}`));
  if (!results.lanes.includes('frontend') || !results.lanes.some((l) => l.startsWith('⟳'))) throw new Error(`lanes: ${results.lanes.join(', ')}`);
  const types = await frame.evaluate(() => [...new Set(window.timelineDebug.state().store.lanes.flatMap((l) => l.events.map((e) => e.type)))]);
  for (const t of ['ADDED', 'MODIFIED', 'DELETED', 'RELIST', 'EXPIRED']) if (!types.includes(t)) throw new Error(`no ${t} marker; types: ${types.join(', ')}`);

  // Frame times while zooming and panning in the real webview.
  const lanesBox = await frame.locator('#lanes').boundingBox();
  results.frames = await measureFrames(page, frame, () => zoomAndPan(page, lanesBox));

  await frame.locator('#zoom-fit').click();
  await frame.locator('#filter-name input').fill('frontend');
  await waitFor('the name filter', async () => {
    const shown = Number(await count.getAttribute('data-shown'));
    return shown > 0 && shown < results.total;
  });
  results.filtered = (await count.textContent())?.trim();
  await frame.locator('#lanes').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('End');
  await frame.locator('#details .diff-line.add').first().waitFor({ timeout: 15_000 });
  results.selected = (await frame.locator('#details .details-title').textContent())?.trim();
  results.diffAdded = (await frame.locator('#details .diff-line.add').allTextContents()).map((t) => t.trim());
  if (!results.diffAdded.some((t) => /version: v\d+/.test(t))) throw new Error(`diff: ${results.diffAdded.join(' | ')}`);
  await frame.locator('#filter-name input').fill('');
  await waitFor('filter cleared', async () => (await count.getAttribute('data-shown')) === (await count.getAttribute('data-total')));
  // Zoom in on the scenario (the first list happened well before it): wheel at the right edge.
  await widenSidebar(page, 430, true);
  await frame.locator('#zoom-fit').click();
  const plot = await frame.locator('#lanes').boundingBox();
  await page.mouse.move(plot.x + plot.width * 0.97, plot.y + plot.height * 0.3);
  await page.mouse.wheel(0, -380);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOTS, 'timeline.png') });

  // 5. 100,000 events end to end, then frame times while zooming and panning over all of them.
  const loadFile = join(scenarios, `controller-lab-ui-load-${process.pid}.yaml`);
  writeFileSync(loadFile, LOAD_SCENARIO);
  await runCommand(page, 'Controller Lab: Load Scenario…');
  // The editor holds the timeline, not a YAML file: the command offers the workspace's scenarios, then a file.
  await pickQuickItem(page, 'Choose a file…');
  await chooseFile(page, 'Load a scenario into the simulated cluster', loadFile);
  const loadStarted = Date.now();
  await waitFor('100,000 events in the timeline', async () => Number((await count.getAttribute('data-total')) ?? 0) >= 100_000, 180_000);
  results.load = { events: Number(await count.getAttribute('data-total')), seconds: +((Date.now() - loadStarted) / 1000).toFixed(1) };
  await frame.locator('#zoom-fit').click();
  results.framesAt100k = await measureFrames(page, frame, () => zoomAndPan(page, lanesBox));
  await frame.locator('#zoom-fit').click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENSHOTS, 'timeline-100k-vscode.png') });
  if (results.framesAt100k.intervalMedianMs > 50) throw new Error(`median frame interval ${results.framesAt100k.intervalMedianMs} ms at 100k events`);

  console.log(JSON.stringify(results, null, 2));
  return results;
}

/* global window, document -- functions passed to page.evaluate run in the browser */
// A controller's misses on the timeline, in Chromium without VS Code: loads the real bundle with a
// stand-in for acquireVsCodeApi, sends a controller's cache event and its miss (the ring around
// it); the pointer on it shows why nothing was enqueued; a right-click names the event for VS
// Code's webview context menu ("Why (Not)?"); its details' Why (not)? button asks the host; writes
// test-output/screenshots/timeline-misses.png (and -details.png). Exit code 1 on any failed check.
//
//   npm run build && node test/ui/webview/timelineMisses.mjs
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bundle = join(root, 'dist/webview/timeline.js');
if (!existsSync(bundle)) throw new Error('build first: npm run build');
const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
const THEME = `:root { --vscode-font-family: system-ui, sans-serif; --vscode-editor-foreground: #d4d4d4; --vscode-descriptionForeground: #9d9d9d;
  --vscode-editor-background: #1e1e1e; --vscode-charts-orange: #d18616; --vscode-charts-green: #89d185; --vscode-charts-blue: #3794ff;
  --vscode-errorForeground: #f48771; --vscode-charts-yellow: #cca700; --vscode-focusBorder: #0078d4; --vscode-textLink-foreground: #3794ff;
  --vscode-terminal-ansiMagenta: #bc3fbc; --vscode-editorWarning-foreground: #cca700; }`;
const WHY = 'app-config enqueued nothing: filtered by GenerationChangedPredicate (For)';
// Geometry of webview/timeline/layout.ts.
const AXIS = 22;
const ROW = 20;

const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 600 } });
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.setContent(`<!DOCTYPE html><html><head><style>${THEME}</style></head><body class="vscode-dark"><div id="app"></div></body></html>`);
  await page.evaluate(() => {
    window.__posted = [];
    window.acquireVsCodeApi = () => ({
      postMessage(message) {
        window.__posted.push(message);
        if (message.kind === 'request') setTimeout(() => window.postMessage({ kind: 'response', id: message.id, method: message.method, result: { event: window.__events[message.params.seq - 1], note: window.__events[message.params.seq - 1].note } }, '*'), 5);
      },
      getState: () => undefined,
      setState: () => {},
    });
  });
  await page.addStyleTag({ path: join(root, 'media/timeline.css') });
  await page.addScriptTag({ path: bundle });
  await page.waitForFunction(() => window.__posted.some((m) => m.method === 'timeline/ready'));

  const now = Date.now();
  await page.evaluate(({ now, WHY }) => {
    const ev = (seq, at, type, rv, note) => ({ seq, at, informer: 'controller:app-config/deployments.apps', resource: 'deployments.apps', kind: 'Deployment', namespace: 'default', name: 'web', type, resourceVersion: rv, cluster: 'app-config cache', ...(note ? { note } : {}) });
    window.__events = [ev(1, now - 20_000, 'ADDED', '143'), ev(2, now - 12_000, 'MODIFIED', '149'), ev(3, now - 12_000, 'MISSED', '149', WHY), ev(4, now - 6_000, 'MODIFIED', '150')];
    window.postMessage({ kind: 'notification', method: 'timeline/reset', params: { events: window.__events, maxEvents: 1000, now } }, '*');
  }, { now, WHY });
  await page.waitForFunction(() => window.timelineDebug.state().view.lanes.length === 1);
  // Held still, as a user holds it to point at an event: following live, the events move left
  // between measuring where the miss is and clicking it.
  await page.locator('#follow').click();
  await page.waitForFunction(() => window.timelineDebug.state().follow === false);

  // The miss is on the object's lane, where its event is.
  const at = await page.evaluate(() => {
    const s = window.timelineDebug.state();
    const lane = s.view.lanes[0];
    const miss = lane.events.find((e) => e.type === 'MISSED');
    const width = document.getElementById('lanes').getBoundingClientRect().width - 240;
    return { count: lane.events.length, x: 240 + ((miss.at - s.viewport.start) / (s.viewport.end - s.viewport.start)) * width };
  });
  assert.equal(at.count, 4, 'one lane: the events and the miss');
  const lanes = await page.locator('#lanes').boundingBox();
  const y = lanes.y + AXIS + ROW / 2;
  await page.mouse.move(lanes.x + at.x, y);
  const title = await page.locator('#lanes').getAttribute('title');
  assert.equal(title, `${WHY}\nMISSED Deployment default/web · rv 149`);
  mkdirSync(join(root, 'test-output/screenshots'), { recursive: true });
  await page.screenshot({ path: join(root, 'test-output/screenshots/timeline-misses.png') });

  // Right-click: VS Code's webview menu reads the event from data-vscode-context.
  await page.mouse.click(lanes.x + at.x, y, { button: 'right' });
  const context = JSON.parse((await page.locator('#lanes').getAttribute('data-vscode-context')) ?? '{}');
  assert.deepEqual(context, { webviewSection: 'event', seq: 3, preventDefaultContextMenuItems: true });
  // Nowhere near an event: nothing to ask about.
  await page.mouse.click(lanes.x + 300, y + ROW * 5, { button: 'right' });
  assert.deepEqual(JSON.parse((await page.locator('#lanes').getAttribute('data-vscode-context')) ?? '{}'), {});

  // Selected, its details offer Why (not)?, which asks the host about that event. (A right-click
  // may have selected it already, and a click on the selected event unselects it: start from none.)
  await page.mouse.click(lanes.x + 300, y + ROW * 5);
  await page.waitForFunction(() => window.timelineDebug.state().selectedSeq === undefined);
  // The details pane that the right-click opened has closed, and the chart takes its width back
  // once the page lays out again: click where the miss is drawn then, not where it was.
  await page.waitForFunction((width) => document.getElementById('lanes').getBoundingClientRect().width === width, lanes.width);
  await page.mouse.click(lanes.x + at.x, y);
  await page.waitForFunction(() => document.getElementById('details').innerText.includes('enqueued nothing'));
  await page.getByText('Why (not)?', { exact: true }).click();
  await page.waitForFunction(() => window.__posted.some((m) => m.method === 'timeline/why'));
  assert.deepEqual((await page.evaluate(() => window.__posted.find((m) => m.method === 'timeline/why'))).params, { seq: 3 });

  await page.screenshot({ path: join(root, 'test-output/screenshots/timeline-misses-details.png') });
  assert.deepEqual(errors, []);
  console.log(JSON.stringify({ ok: true, title, context }));
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await browser.close();
}

/* global window, document -- functions passed to page.evaluate run in the browser */
// A create and the patch 200 ms after it, on one object's lane, in Chromium without VS Code: both
// markers are drawn, side by side and not over each other (the green ADDED triangle and the blue
// MODIFIED dot cover disjoint columns, in time order), and the pointer on each names its own event.
// Writes test-output/screenshots/timeline-close-events.png. Exit code 1 on any failed check.
//
//   npm run build && node test/ui/webview/timelineCloseEvents.mjs
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
  --vscode-editor-background: #1e1e1e; --vscode-charts-green: #00ff00; --vscode-charts-blue: #0000ff; --vscode-focusBorder: #0078d4; }`;
// Geometry of webview/timeline/layout.ts.
const GUTTER = 240;
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
    window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => {} });
  });
  await page.addStyleTag({ path: join(root, 'media/timeline.css') });
  await page.addScriptTag({ path: bundle });
  await page.waitForFunction(() => window.__posted.some((m) => m.method === 'timeline/ready'));

  const now = Date.now();
  await page.evaluate((now) => {
    const ev = (seq, at, type, rv) => ({ seq, at, informer: 'configmaps', resource: 'configmaps', kind: 'ConfigMap', namespace: 'default', name: 'web', type, resourceVersion: rv, cluster: 'sim' });
    const events = [ev(1, now - 10_000, 'ADDED', '201'), ev(2, now - 9_800, 'MODIFIED', '202')];
    window.postMessage({ kind: 'notification', method: 'timeline/reset', params: { events, maxEvents: 1000, now } }, '*');
  }, now);
  await page.waitForFunction(() => window.timelineDebug.state().view.lanes.length === 1);
  await page.locator('#follow').click();
  await page.waitForFunction(() => window.timelineDebug.state().follow === false);
  await page.waitForTimeout(100);

  // The columns of the lane's row where each colour is drawn.
  const columns = await page.evaluate(({ AXIS, ROW, GUTTER }) => {
    const canvas = document.getElementById('lanes');
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const ctx = canvas.getContext('2d');
    const top = Math.round(AXIS * scale);
    const height = Math.round(ROW * scale);
    const left = Math.round(GUTTER * scale);
    const { data, width } = ctx.getImageData(left, top, canvas.width - left, height);
    const green = [];
    const blue = [];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const [r, g, b] = data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3);
        const css = (left + x) / scale;
        if (g > 150 && r < 90 && b < 90) green.push(css);
        if (b > 150 && r < 90 && g < 90) blue.push(css);
      }
    }
    const span = (xs) => (xs.length ? [Math.min(...xs), Math.max(...xs)] : undefined);
    return { green: span(green), blue: span(blue), greenPixels: green.length, viewportMs: window.timelineDebug.state().viewport.end - window.timelineDebug.state().viewport.start };
  }, { AXIS, ROW, GUTTER });
  mkdirSync(join(root, 'test-output/screenshots'), { recursive: true });
  await page.screenshot({ path: join(root, 'test-output/screenshots/timeline-close-events.png') });
  assert.ok(columns.green, `the ADDED marker is drawn: ${JSON.stringify(columns)}`);
  assert.ok(columns.blue, `the MODIFIED marker is drawn: ${JSON.stringify(columns)}`);
  assert.ok(columns.green[1] < columns.blue[0], `ADDED is drawn left of MODIFIED and clear of it: ${JSON.stringify(columns)}`);

  // The pointer on each marker names its own event.
  const lanes = await page.locator('#lanes').boundingBox();
  const y = lanes.y + AXIS + ROW / 2;
  const titleAt = async (x) => {
    await page.mouse.move(lanes.x + x, y);
    return page.locator('#lanes').getAttribute('title');
  };
  assert.match((await titleAt((columns.green[0] + columns.green[1]) / 2)) ?? '', /^ADDED ConfigMap default\/web · rv 201/);
  assert.match((await titleAt((columns.blue[0] + columns.blue[1]) / 2)) ?? '', /^MODIFIED ConfigMap default\/web · rv 202/);
  assert.deepEqual(errors, []);
  console.log(JSON.stringify({ ok: true, ...columns }));
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await browser.close();
}

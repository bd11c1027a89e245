/* global window, document -- functions passed to page.evaluate run in the browser */
// A replayed check finding on the timeline, in Chromium without VS Code: loads the real bundle with
// a stand-in for acquireVsCodeApi, sends a controller's cache events, the perturbation's marker and
// a reconcile with a stale read; the pointer on the marker shows what was done, on the reconcile its
// warning; the reconcile's details list the warning; writes test-output/screenshots/timeline-perturbation.png.
// Exit code 1 on any failed check.
//
//   npm run build && node test/ui/webview/timelinePerturbation.mjs
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
const WHAT = 'its watch events withheld for 1500 ms right after `create ConfigMap default/web-*`, every key reconciled meanwhile';
const STALE = 'warning: stale read: ConfigMap default/web at rv 144, older than rv 147 this controller wrote (update in #1)';
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
        if (message.kind === 'request') setTimeout(() => window.postMessage({ kind: 'response', id: message.id, method: message.method, result: { event: window.__events[message.params.seq - 1] } }, '*'), 5);
      },
      getState: () => undefined,
      setState: () => {},
    });
  });
  await page.addStyleTag({ path: join(root, 'media/timeline.css') });
  await page.addScriptTag({ path: bundle });
  await page.waitForFunction(() => window.__posted.some((m) => m.method === 'timeline/ready'));

  const now = Date.now();
  await page.evaluate(({ now, WHAT, STALE }) => {
    const cache = 'child-maker cache';
    const ev = (seq, at, name, type, rv) => ({ seq, at, informer: 'controller:child-maker/configmaps', resource: 'configmaps', kind: 'ConfigMap', namespace: 'default', name, type, resourceVersion: rv, cluster: cache });
    window.__events = [
      ev(1, now - 20_000, 'web', 'ADDED', '144'),
      { seq: 2, at: now - 15_000, informer: 'controller:child-maker/perturbations', resource: 'perturbations', namespace: '', name: '', type: 'PERTURBATION', resourceVersion: '146', note: WHAT, cluster: cache },
      ev(3, now - 8_000, 'web-x7k2p', 'ADDED', '146'),
      ev(4, now - 8_000, 'web', 'MODIFIED', '147'),
    ];
    window.postMessage({ kind: 'notification', method: 'timeline/reset', params: { events: window.__events, maxEvents: 1000, now } }, '*');
    const span = {
      id: 'r2', seq: 2, controller: 'child-maker', kind: 'ConfigMap', key: 'default/web', startedAt: now - 14_000, endedAt: now - 12_000, outcome: 'success', detail: 'done',
      triggers: [{ type: 'RESYNC', kind: 'ConfigMap', key: 'default/web', resourceVersion: '144', via: 'resync', at: now - 14_500 }],
      writes: [{ verb: 'create', kind: 'ConfigMap', namespace: 'default', name: 'web-q2r8d', resourceVersion: '148', at: now - 13_000 }],
      warnings: [STALE],
    };
    window.postMessage({ kind: 'notification', method: 'timeline/spans', params: { spans: [span] } }, '*');
  }, { now, WHAT, STALE });
  await page.waitForFunction(() => window.timelineDebug.spans().size === 1 && window.timelineDebug.state().view.lanes.length === 3);

  // The marker's lane and x, as the renderer places them.
  const at = await page.evaluate(() => {
    const s = window.timelineDebug.state();
    const row = s.view.lanes.findIndex((l) => l.resource === 'perturbations');
    const marker = s.view.lanes[row].events[0];
    const width = document.getElementById('lanes').getBoundingClientRect().width - 240;
    const span = window.timelineDebug.spans().get('r2');
    const x = (t) => 240 + ((t - s.viewport.start) / (s.viewport.end - s.viewport.start)) * width;
    return { row, markerX: x(marker.at), spanX: x((span.startedAt + span.endedAt) / 2), spanStartX: x(span.startedAt) };
  });
  assert.ok(at.row >= 0, 'the perturbation has a lane');
  const lanes = await page.locator('#lanes').boundingBox();
  await page.mouse.move(lanes.x + at.markerX, lanes.y + AXIS + at.row * ROW + ROW / 2);
  const markerTitle = await page.locator('#lanes').getAttribute('title');
  assert.equal(markerTitle, `${WHAT}\nPerturbation · controller:child-maker/perturbations · rv 146`);

  const strip = await page.locator('#spans').boundingBox();
  // On the warning triangle before the bar, then on the bar.
  await page.mouse.move(strip.x + at.spanStartX - 7, strip.y + 2 + 10);
  assert.equal(await page.locator('#spans').getAttribute('title'), `reconcile #2 ConfigMap default/web · success · done\n${STALE}`);
  await page.mouse.move(strip.x + at.spanX, strip.y + 2 + 8);
  const spanTitle = await page.locator('#spans').getAttribute('title');
  assert.equal(spanTitle, `reconcile #2 ConfigMap default/web · success · done\n${STALE}`);
  await page.mouse.click(strip.x + at.spanX, strip.y + 2 + 8);
  await page.waitForFunction(() => document.getElementById('details').dataset.span === 'r2');
  const details = await page.evaluate(() => document.getElementById('details').innerText);
  assert.match(details, /Warnings \(1\)/);
  assert.ok(details.includes(STALE), details);

  mkdirSync(join(root, 'test-output/screenshots'), { recursive: true });
  await page.mouse.move(lanes.x + at.markerX, lanes.y + AXIS + at.row * ROW + ROW / 2);
  await page.screenshot({ path: join(root, 'test-output/screenshots/timeline-perturbation.png') });
  assert.deepEqual(errors, []);
  console.log(JSON.stringify({ ok: true, markerTitle, spanTitle }));
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await browser.close();
}

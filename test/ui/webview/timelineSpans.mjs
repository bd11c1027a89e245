/* global window, document -- functions passed to page.evaluate run in the browser */
// Reconcile spans in the timeline webview, in Chromium without VS Code: loads the real bundle with a
// stand-in for acquireVsCodeApi, sends events and a controller's reconcile spans, clicks a bar in the
// reconcile strip, checks the details list its trigger and writes (linked by resourceVersion to the
// events), follows a link to select the event, and writes test-output/screenshots/timeline-spans.png.
// Exit code 1 on any failed check.
//
//   npm run build && node test/ui/webview/timelineSpans.mjs
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
  --vscode-errorForeground: #f48771; --vscode-charts-yellow: #cca700; --vscode-focusBorder: #0078d4; --vscode-textLink-foreground: #3794ff; }`;

const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 700 } });
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

  await page.evaluate(() => {
    const now = Date.now();
    const ev = (seq, at, resource, name, type, rv) => ({ seq, at, informer: resource, resource, namespace: 'default', name, type, resourceVersion: rv });
    window.__events = [ev(1, now - 20_000, 'replicasets.apps', 'web', 'ADDED', '10'), ev(2, now - 18_000, 'pods', 'web-x1', 'ADDED', '11'), ev(3, now - 17_000, 'replicasets.apps', 'web', 'MODIFIED', '12')];
    window.postMessage({ kind: 'notification', method: 'timeline/reset', params: { events: window.__events, maxEvents: 1000, now } }, '*');
    const span = {
      id: 'r1', seq: 1, controller: 'replicaset-controller', kind: 'ReplicaSet', key: 'default/web', startedAt: now - 19_500, endedAt: now - 16_500, outcome: 'success', detail: 'done',
      triggers: [{ type: 'ADDED', kind: 'ReplicaSet', key: 'default/web', resourceVersion: '10', via: 'for', at: now - 20_000 }],
      writes: [
        { verb: 'create', kind: 'Pod', namespace: 'default', name: 'web-x1', resourceVersion: '11', at: now - 18_000 },
        { verb: 'updateStatus', kind: 'ReplicaSet', namespace: 'default', name: 'web', resourceVersion: '12', at: now - 17_000 },
      ],
    };
    const failed = { ...span, id: 'r2', seq: 2, key: 'default/api', startedAt: now - 10_000, endedAt: now - 9_000, outcome: 'error', detail: 'boom — requeued with backoff (error)', triggers: [], writes: [] };
    window.postMessage({ kind: 'notification', method: 'timeline/spans', params: { spans: [span, failed] } }, '*');
    window.postMessage({ kind: 'notification', method: 'timeline/spans', params: { spans: [{ bad: true }] } }, '*');
  });
  await page.waitForFunction(() => window.timelineDebug.spans().size === 2);
  const strip = await page.locator('#spans').boundingBox();
  assert.ok(strip && strip.height >= 2 * 16, `the strip shows two rows: ${JSON.stringify(strip)}`);

  // Click the middle of the web reconcile's bar (second row: api is the more recent lane).
  const x = await page.evaluate(() => {
    const s = window.timelineDebug.state();
    const span = window.timelineDebug.spans().get('r1');
    const width = document.getElementById('spans').getBoundingClientRect().width - 240;
    return 240 + (((span.startedAt + span.endedAt) / 2 - s.viewport.start) / (s.viewport.end - s.viewport.start)) * width;
  });
  const rows = await page.evaluate(() => window.timelineDebug.spans().lanes().map((l) => l.requestKey));
  assert.deepEqual(rows, ['default/api', 'default/web']);
  await page.mouse.click(strip.x + x, strip.y + 2 + 16 + 8);
  await page.waitForFunction(() => document.getElementById('details').dataset.span === 'r1');
  const text = await page.evaluate(() => document.getElementById('details').innerText);
  assert.match(text, /ReplicaSet default\/web/);
  assert.match(text, /Triggered by \(1\)/);
  assert.match(text, /ADDED ReplicaSet default\/web \(for\) · rv 10/);
  assert.match(text, /Writes \(2\)/);
  const links = await page.locator('#details a.span-link-target').count();
  assert.equal(links, 3, 'trigger and both writes link to their events');
  mkdirSync(join(root, 'test-output/screenshots'), { recursive: true });
  await page.screenshot({ path: join(root, 'test-output/screenshots/timeline-spans.png') });

  // Following the write's link selects the Pod's ADDED event.
  await page.locator('#details a.span-link-target', { hasText: 'create Pod default/web-x1' }).click();
  await page.waitForFunction(() => window.timelineDebug.state().selectedSeq === 2);
  // Keyboard: the strip takes focus; arrows select spans (the newest first, then down to web's).
  await page.focus('#spans');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.getElementById('details').dataset.span === 'r2');
  assert.match(await page.evaluate(() => document.getElementById('details').innerText), /boom — requeued with backoff \(error\)/);
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.getElementById('details').dataset.span === 'r1');
  assert.deepEqual(errors, []);
  console.log(JSON.stringify({ ok: true, rows, links }));
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await browser.close();
}

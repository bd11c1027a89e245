/* global window, document, requestAnimationFrame -- functions passed to page.evaluate run in the browser */
// Measures the timeline webview in Chromium without VS Code: loads the real bundle
// (dist/webview/timeline.js) into a page with a stand-in for acquireVsCodeApi and VS Code's dark
// theme variables, sends 100,000 events, then pans and zooms with the mouse and keyboard while
// recording requestAnimationFrame intervals and the app's own draw times. Prints a JSON summary
// and writes screenshots to test-output/screenshots/timeline-100k-{all,filtered}.png. Exit code 1 when the
// median frame interval during interaction exceeds the budget.
//
//   npm run build && node test/ui/webview/timelineFrames.mjs [--events 100000]
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const eventsArg = process.argv.indexOf('--events');
const EVENTS = eventsArg > 0 ? Number(process.argv[eventsArg + 1]) : 100_000;
const BUDGET_MS = Number(process.env.TIMELINE_FRAME_BUDGET_MS ?? 50);
const bundle = join(root, 'dist/webview/timeline.js');
if (!existsSync(bundle)) throw new Error('build first: npm run build');
const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

const THEME = `
:root {
  --vscode-font-family: system-ui, sans-serif; --vscode-font-size: 13px; --vscode-editor-font-family: monospace; --vscode-editor-font-size: 12px;
  --vscode-foreground: #cccccc; --vscode-editor-foreground: #d4d4d4; --vscode-descriptionForeground: #9d9d9d;
  --vscode-editor-background: #1e1e1e; --vscode-sideBar-background: #181818; --vscode-panel-border: #2b2b2b; --vscode-editorWidget-border: #454545;
  --vscode-list-hoverBackground: #2a2d2e; --vscode-list-activeSelectionBackground: #04395e; --vscode-focusBorder: #0078d4;
  --vscode-charts-green: #89d185; --vscode-charts-blue: #3794ff; --vscode-charts-red: #f14c4c; --vscode-charts-yellow: #cca700;
  --vscode-charts-purple: #b180d7; --vscode-charts-lines: #808080; --vscode-errorForeground: #f48771;
  --vscode-diffEditor-insertedLineBackground: #9bb95533; --vscode-diffEditor-removedLineBackground: #ff000033;
}`;

const browser = await chromium.launch({
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 820 } });
  page.on('pageerror', (err) => console.error('page error:', err.message));
  await page.setContent(`<!DOCTYPE html><html><head><style>${THEME}</style></head><body class="vscode-dark"><div id="app"></div></body></html>`);
  const installStub = () => page.evaluate(() => {
    window.__posted = [];
    window.acquireVsCodeApi = () => ({
      postMessage(message) {
        window.__posted.push(message);
        if (message.kind === 'request' && message.method === 'timeline/eventDetails') {
          const seq = message.params.seq;
          const event = window.__events?.[seq - 1];
          const diff = [
            { op: ' ', text: 'metadata:' },
            { op: ' ', text: `  name: ${event?.name}` },
            { op: '-', text: `  resourceVersion: "${Number(event?.resourceVersion) - 1}"` },
            { op: '+', text: `  resourceVersion: "${event?.resourceVersion}"` },
            { op: ' ', text: 'data:' },
            { op: '-', text: '  replicas: "2"' },
            { op: '+', text: '  replicas: "3"' },
          ];
          setTimeout(() => window.postMessage({ kind: 'response', id: message.id, method: message.method, result: { event, yaml: '', previousResourceVersion: String(Number(event?.resourceVersion) - 1), diff } }, '*'), 5);
        }
      },
      getState: () => undefined,
      setState: () => {},
    });
  });
  await installStub();
  await page.addStyleTag({ path: join(root, 'media/timeline.css') });
  await page.addScriptTag({ path: bundle });
  await page.waitForFunction(() => window.__posted.some((m) => m.method === 'timeline/ready'));

  // 100k events over ten minutes on 2,000 objects in 4 namespaces, with lists and a 410.
  const sendMs = await page.evaluate((n) => {
    const start = Date.now() - 600_000;
    const types = ['MODIFIED', 'MODIFIED', 'MODIFIED', 'ADDED', 'DELETED', 'MODIFIED'];
    const namespaces = ['default', 'shop', 'payments', 'kube-system'];
    const events = [];
    for (let i = 0; i < n; i++) {
      const obj = i % 2000;
      const informerLevel = i % 5000 === 0;
      events.push({
        seq: i + 1,
        at: start + Math.floor((i / n) * 600_000),
        informer: 'sim/configmaps',
        resource: obj % 3 === 0 ? 'deployments.apps' : 'configmaps',
        namespace: informerLevel ? '' : namespaces[obj % 4],
        name: informerLevel ? '' : `object-${String(obj).padStart(4, '0')}`,
        type: informerLevel ? (i % 20000 === 0 ? 'EXPIRED' : 'RELIST') : types[i % types.length],
        resourceVersion: String(1000 + i),
      });
    }
    window.__events = events;
    const t0 = performance.now();
    window.postMessage({ kind: 'notification', method: 'timeline/reset', params: { events, maxEvents: 100000, now: start + 600_000 } }, '*');
    return performance.now() - t0;
  }, EVENTS);
  await page.waitForFunction((n) => document.getElementById('event-count')?.dataset.total === String(n), EVENTS);
  const countText = await page.textContent('#event-count');

  const sampler = () => page.evaluate(() => {
    window.__intervals = [];
    let last = performance.now();
    window.__sampling = true;
    const tick = (t) => {
      window.__intervals.push(t - last);
      last = t;
      if (window.__sampling) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    window.timelineDebug.frameTimes.length = 0;
  });
  const collect = () => page.evaluate(() => {
    window.__sampling = false;
    const sorted = (a) => [...a].sort((x, y) => x - y);
    const pct = (a, p) => (a.length ? sorted(a)[Math.min(a.length - 1, Math.floor(a.length * p))] : 0);
    const iv = window.__intervals.slice(1);
    const draws = window.timelineDebug.frameTimes;
    return {
      frames: iv.length,
      intervalMedianMs: +pct(iv, 0.5).toFixed(1),
      intervalP95Ms: +pct(iv, 0.95).toFixed(1),
      drawMedianMs: +pct(draws, 0.5).toFixed(2),
      drawP95Ms: +pct(draws, 0.95).toFixed(2),
      draws: draws.length,
    };
  });

  const lanes = await page.locator('#lanes').boundingBox();
  const cx = lanes.x + lanes.width * 0.6;
  const cy = lanes.y + lanes.height * 0.5;
  // Show the whole ten minutes first (every event in the window: the worst case for drawing).
  await page.click('#zoom-fit');
  await page.waitForTimeout(200);

  await sampler();
  await page.mouse.move(cx, cy);
  for (let i = 0; i < 30; i++) {
    await page.mouse.wheel(0, i < 15 ? -120 : 120);
    await page.waitForTimeout(16);
  }
  const zoom = await collect();

  await sampler();
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 0; i < 60; i++) {
    await page.mouse.move(cx - i * 8, cy + (i % 10), { steps: 1 });
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  const pan = await collect();

  // Keyboard: focus the canvas, select, walk along and across lanes.
  await page.click('#zoom-fit');
  await page.focus('#lanes');
  await sampler();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press(i % 4 === 3 ? 'ArrowDown' : 'ArrowRight');
    await page.waitForTimeout(16);
  }
  const keys = await collect();
  await page.waitForSelector('#details .diff-line.add');
  const out = join(root, 'test-output/screenshots');
  mkdirSync(out, { recursive: true });
  await page.screenshot({ path: join(out, 'timeline-100k-all.png') });

  // A filter: name substring + hide MODIFIED.
  await page.fill('#filter-name input', 'object-001').catch(async () => {
    await page.focus('#filter-name');
    await page.keyboard.type('object-001');
  });
  await page.waitForFunction(() => document.getElementById('event-count')?.dataset.shown !== document.getElementById('event-count')?.dataset.total);
  const filteredText = await page.textContent('#event-count');
  await page.click('#zoom-fit');
  await page.focus('#lanes');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#details .diff-line.add');
  await page.waitForTimeout(300);

  await page.screenshot({ path: join(out, 'timeline-100k-filtered.png') });

  const summary = { events: EVENTS, resetPostMs: +sendMs.toFixed(1), countText, filteredText, zoom, pan, keys };
  console.log(JSON.stringify(summary, null, 2));
  const worst = Math.max(zoom.intervalMedianMs, pan.intervalMedianMs, keys.intervalMedianMs);
  if (worst > BUDGET_MS) {
    console.error(`median frame interval ${worst} ms exceeds ${BUDGET_MS} ms`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
}

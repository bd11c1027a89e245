// Debian's Chromium driven by playwright-core, with the flags that keep it off the network. Every
// request the page makes is checked: anything but 127.0.0.1 is recorded as a violation.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export async function openBrowser({ width = 1600, height = 1000 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'controller-lab-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: FLAGS,
    viewport: { width, height },
  });
  const offHost = new Set();
  // Webview resources use https://*.vscode-resource.vscode-cdn.net URLs that VS Code's service worker
  // answers locally; only a request that went to the network (or tried to) counts. A resource of
  // this code-server on 127.0.0.1 (`vscode-remote+127-002e0-002e0-002e1-…`) is VS Code's own
  // name for a file it serves: one asked before the service worker took over (a webview opened at
  // start, such as the walkthrough's) is still not a request for anything off this machine.
  const record = (/** @type {import('playwright-core').Request} */ request, /** @type {boolean} */ local) => {
    const url = new URL(request.url());
    if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return;
    if (/^vscode-remote\+127-002e0-002e0-002e1-003a\d+\.vscode-resource\.vscode-cdn\.net$/.test(url.hostname)) return;
    if (url.hostname !== '127.0.0.1' && !local) offHost.add(url.origin);
  };
  browser.on('response', (response) => record(response.request(), response.fromServiceWorker()));
  browser.on('requestfailed', (request) => record(request, false));
  browser.once('close', () => rmSync(profile, { recursive: true, force: true, maxRetries: 3 }));
  const page = browser.pages()[0] ?? (await browser.newPage());
  return { browser, page, offHostRequests: () => [...offHost] };
}

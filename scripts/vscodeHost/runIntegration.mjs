// Runs the integration suite (out/test/suite/index.cjs) inside a real VS Code extension host:
// code-server with the smoke-test driver, opened in Chromium with an extensionDevelopmentPath /
// extensionTestsPath payload. The extension host's console reaches us through codeAutomationLog,
// the suite's verdict through codeAutomationExit.
import { existsSync, mkdtempSync } from 'node:fs';
import { format } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './install.mjs';
import { startCodeServer } from './codeServer.mjs';
import { openBrowser } from './browser.mjs';

const TIMEOUT_MS = Number(process.env.INTEGRATION_TIMEOUT_MS ?? 600_000);

/** @returns {Promise<{ passed: number, failed: number }>} */
export async function runIntegration({ verbose = false, suite = join(repoRoot, 'out', 'test', 'suite', 'index.cjs') } = {}) {
  if (!existsSync(suite)) throw new Error(`${suite} is missing: run \`npm run build\` first`);
  const workspace = existsSync(join(repoRoot, 'examples')) ? join(repoRoot, 'examples') : mkdtempSync(join(tmpdir(), 'controller-lab-ws-'));
  const server = await startCodeServer({ workspace, smokeTestDriver: true, verbose });
  const { browser, page, offHostRequests } = await openBrowser();
  let counts;
  try {
    /** @type {(code: number) => void} */
    let exit = () => {};
    const exited = new Promise((resolve) => (exit = resolve));
    await page.exposeFunction('codeAutomationLog', (/** @type {string} */ _type, /** @type {unknown[]} */ args) => {
      // Mocha's reporter logs printf-style (`'%s (%dms)', title, ms`): format like console.log would.
      const line = format(...(Array.isArray(args) ? args : [args]));
      const m = /CONTROLLER_LAB_INTEGRATION_RESULT passed=(\d+) failed=(\d+)/.exec(line);
      if (m) counts = { passed: Number(m[1]), failed: Number(m[2]) };
      console.log(line);
    });
    await page.exposeFunction('codeAutomationExit', (/** @type {number} */ code) => exit(code));
    const remote = (/** @type {string} */ p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = [['extensionDevelopmentPath', remote(repoRoot)], ['extensionTestsPath', remote(suite)]];
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    // Whatever happens, this ends: the suite's verdict, a dead server or page, or the timeout.
    let timer;
    const code = await Promise.race([
      exited,
      server.exited.then((c) => `code-server exited (${c}):\n${server.output()}`),
      new Promise((resolve) => page.once('crash', () => resolve('the workbench page crashed'))),
      new Promise((resolve) => page.once('close', () => resolve('the workbench page closed'))),
      new Promise((resolve) => (timer = setTimeout(() => resolve(`the suite did not finish within ${TIMEOUT_MS / 1000} s`), TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    if (typeof code === 'string') {
      console.log(`integration run aborted: ${code}`);
      counts = { passed: counts?.passed ?? 0, failed: (counts?.failed ?? 0) + 1 };
    } else if (!counts) {
      // The suite never reported (a missing entry, a loader that threw): that is a failure.
      console.log(`integration suite exited with ${code} without reporting results`);
      counts = { passed: 0, failed: 1 };
    } else if (code !== 0 && counts.failed === 0) {
      counts.failed = 1;
    }
    const offHost = offHostRequests();
    if (offHost.length > 0) {
      console.log(`the browser reached hosts other than 127.0.0.1: ${offHost.join(', ')}`);
      counts.failed++;
    } else {
      console.log('network: the browser made requests to 127.0.0.1 only');
    }
  } finally {
    await browser.close().catch(() => {});
    server.stop();
  }
  return counts;
}

if (process.argv[1] && process.argv[1].endsWith('runIntegration.mjs')) {
  const { passed, failed } = await runIntegration({ verbose: process.argv.includes('--verbose') });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

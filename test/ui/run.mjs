// Runs every UI check (test/ui/checks/*.ui.mjs) against the packaged .vsix installed into a fresh
// code-server, each in a fresh workbench page (so each gets its own extension host). A failing
// check leaves a screenshot named after it.
import { existsSync, globSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer } from '../../scripts/vscodeHost/codeServer.mjs';
import { openBrowser } from '../../scripts/vscodeHost/browser.mjs';
import { repoRoot, screenshotsDir, workbench } from './workbench.mjs';

const CHECK_TIMEOUT_MS = Number(process.env.UI_CHECK_TIMEOUT_MS ?? 240_000);

export async function runUiChecks({ only = process.env.UI_CHECK } = {}) {
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const vsix = join(repoRoot, `controller-lab-${version}.vsix`);
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\` first`);
  const checks = globSync('test/ui/checks/*.ui.mjs', { cwd: repoRoot })
    .sort()
    .filter((f) => !only || f.includes(only));
  // Screenshots are this run's: a full run starts from an empty folder.
  if (!only) rmSync(screenshotsDir, { recursive: true, force: true });
  const workspace = join(repoRoot, 'examples');
  const server = await startCodeServer({ workspace: existsSync(workspace) ? workspace : repoRoot, vsix });
  const { browser, offHostRequests } = await openBrowser();
  let passed = 0;
  let failed = 0;
  try {
    for (const file of checks) {
      const check = await import(join(repoRoot, file));
      const page = await browser.newPage();
      const wb = workbench(page);
      const started = Date.now();
      try {
        await page.goto(`${server.url}/?folder=${encodeURIComponent(existsSync(workspace) ? workspace : repoRoot)}`);
        await wb.ready();
        // A check never hangs the run: past its time it fails, and closing its page ends its waits.
        let timer;
        await Promise.race([
          check.run(wb),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`did not finish within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS))),
        ]).finally(() => clearTimeout(timer));
        passed++;
        console.log(`✔ ${check.name} (${Date.now() - started} ms)`);
      } catch (err) {
        failed++;
        console.log(`✖ ${check.name}\n  ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        await wb.screenshot(`FAILED-${file.replace(/.*\//, '').replace('.ui.mjs', '')}`).catch(() => {});
      } finally {
        await page.close().catch(() => {});
      }
    }
    const offHost = offHostRequests();
    if (offHost.length > 0) {
      failed++;
      console.log(`✖ the browser reached hosts other than 127.0.0.1: ${offHost.join(', ')}`);
    } else {
      console.log('✔ the browser made requests to 127.0.0.1 only');
      passed++;
    }
  } finally {
    await browser.close().catch(() => {});
    server.stop();
  }
  return { passed, failed };
}

if (process.argv[1] && process.argv[1].endsWith('run.mjs')) {
  const { passed, failed } = await runUiChecks();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

// Runs every UI check (test/ui/checks/*.ui.mjs) against the packaged .vsix, installed once with
// code-server's --install-extension into a fresh extensions directory. Each check gets a workbench of
// its own — a new code-server (fresh user data) and a new Chromium profile — so nothing one check
// leaves behind (recent folders, open editors, a running cluster) changes what the next one sees.
// A failing check leaves a screenshot named after it; UI_CHECK=<part of a file name> runs only those.
// Then the timeline webview alone in Chromium (test/ui/webview/*.mjs): frame times at 100,000 events
// and the reconcile-span strip, each a script that exits non-zero when its check fails.
import { spawnSync } from 'node:child_process';
import { existsSync, globSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCodeServer } from '../../scripts/vscodeHost/codeServer.mjs';
import { openBrowser } from '../../scripts/vscodeHost/browser.mjs';
import { repoRoot, screenshotsDir, workbench } from './workbench.mjs';

const CHECK_TIMEOUT_MS = Number(process.env.UI_CHECK_TIMEOUT_MS ?? 240_000);

/** The extension's own log (the "Controller Lab" output channel), as VS Code wrote it to disk. */
function extensionLog(home) {
  return globSync('**/*Controller Lab.log', { cwd: home }).map((f) => readFileSync(join(home, f), 'utf8')).join('');
}

/**
 * Its last lines, for a failure message: enough to hold a crashed process's whole report (a V8
 * fatal error's message comes before a stack of a dozen lines, each a line of the log).
 */
function extensionLogTail(home, lines = 60) {
  const tail = extensionLog(home).trimEnd().split('\n').slice(-lines).join('\n  ');
  return tail ? `\n  The Controller Lab log ends:\n  ${tail}` : '';
}

export async function runUiChecks({ only = process.env.UI_CHECK } = {}) {
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const vsix = join(repoRoot, `controller-lab-${version}.vsix`);
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\` first`);
  const checks = globSync('test/ui/checks/*.ui.mjs', { cwd: repoRoot })
    .sort()
    .filter((f) => !only || f.includes(only));
  if (checks.length === 0) {
    const pages = runPageChecks(only);
    if (pages.passed + pages.failed === 0) console.log(`no UI checks${only ? ` match ${only}` : ''}`);
    return pages.passed + pages.failed === 0 ? { passed: 0, failed: only ? 1 : 0 } : pages;
  }
  // Screenshots are this run's: a full run starts from an empty folder.
  if (!only) rmSync(screenshotsDir, { recursive: true, force: true });
  const examples = join(repoRoot, 'examples');
  const scratch = mkdtempSync(join(tmpdir(), 'controller-lab-ui-'));
  const workspace = existsSync(examples) ? examples : mkdtempSync(join(scratch, 'workspace-'));
  const extensionsDir = mkdtempSync(join(scratch, 'extensions-'));
  const offHost = new Set();
  let installed = false;
  let passed = 0;
  let failed = 0;
  try {
    // A check that fails is run again in a fresh workbench, twice at most (it says so): a real
    // workbench on a loaded 2-core machine has timing a check cannot always wait out; a check that
    // fails three times fails the run.
    const queue = checks.map((file) => ({ file, attempt: 1 }));
    for (const { file, attempt } of queue) {
      const check = await import(join(repoRoot, file));
      const started = Date.now();
      /** @type {Awaited<ReturnType<typeof startCodeServer>> | undefined} */
      let server;
      /** @type {Awaited<ReturnType<typeof openBrowser>> | undefined} */
      let browser;
      /** @type {ReturnType<typeof workbench> | undefined} */
      let wb;
      try {
        // What a check needs before its workbench opens (a Go build), outside its time limit.
        if (attempt === 1) await check.prepare?.();
        server = await startCodeServer({ workspace, extensionsDir, ...(installed ? {} : { vsix }) });
        installed = true;
        browser = await openBrowser();
        wb = workbench(browser.page);
        await browser.page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
        await wb.ready();
        // A check never hangs the run: past its time it fails, and closing its browser ends its waits.
        // A check that starts more (a Go program under Delve) may ask for longer.
        const timeoutMs = Math.max(CHECK_TIMEOUT_MS, check.timeoutMs ?? 0);
        let timer;
        await Promise.race([
          check.run(wb, { extensionLog: () => extensionLog(server.home) }),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`did not finish within ${timeoutMs / 1000} s`)), timeoutMs))),
        ]).finally(() => clearTimeout(timer));
        passed++;
        console.log(`✔ ${check.name} (${Date.now() - started} ms)${attempt > 1 ? ` — on run ${attempt}` : ''}`);
      } catch (err) {
        const message = `${err instanceof Error ? (err.stack ?? err.message) : String(err)}${server ? extensionLogTail(server.home) : ''}`;
        await wb?.screenshot(`FAILED-${file.replace(/.*\//, '').replace('.ui.mjs', '')}${attempt > 1 ? `-run${attempt}` : ''}`).catch(() => {});
        if (attempt < 3) {
          console.log(`… ${check.name ?? file} failed on run ${attempt}; running it again\n  ${message}`);
          queue.push({ file, attempt: attempt + 1 });
        } else {
          failed++;
          console.log(`✖ ${check.name ?? file}\n  ${message}`);
        }
      } finally {
        for (const origin of browser?.offHostRequests() ?? []) offHost.add(origin);
        await browser?.browser.close().catch(() => {});
        server?.stop();
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
  const pages = runPageChecks(only);
  passed += pages.passed;
  failed += pages.failed;
  if (offHost.size > 0) {
    failed++;
    console.log(`✖ the browser reached hosts other than 127.0.0.1: ${[...offHost].join(', ')}`);
  } else {
    console.log('✔ the browser made requests to 127.0.0.1 only');
    passed++;
  }
  return { passed, failed };
}

function runPageChecks(only) {
  let passed = 0;
  let failed = 0;
  for (const file of globSync('test/ui/webview/*.mjs', { cwd: repoRoot }).sort().filter((f) => !only || f.includes(only))) {
    const started = Date.now();
    const run = spawnSync(process.execPath, [file], { cwd: repoRoot, encoding: 'utf8', timeout: CHECK_TIMEOUT_MS });
    const said = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim();
    if (run.status === 0) {
      passed++;
      console.log(`✔ webview page: ${file} (${Date.now() - started} ms)\n${said.replace(/^/gm, '  ')}`);
    } else {
      failed++;
      console.log(`✖ webview page: ${file} (exit ${run.status ?? run.signal})\n${said.replace(/^/gm, '  ')}`);
    }
  }
  return { passed, failed };
}

if (process.argv[1] && process.argv[1].endsWith('run.mjs')) {
  const { passed, failed } = await runUiChecks();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

// `npm run test:electron`: the same integration suite (out/test/suite/index.cjs) under a downloaded
// desktop VS Code, through @vscode/test-electron — for machines that can reach VS Code's download
// servers. Where they cannot be reached this fails at once with a message saying so, never hangs.
// VSCODE_EXECUTABLE_PATH=<code binary> uses an installed VS Code and skips the download.
import { runTests } from '@vscode/test-electron';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const extensionTestsPath = join(repoRoot, 'out', 'test', 'suite', 'index.cjs');
const DOWNLOAD_HOST = 'https://update.code.visualstudio.com';
const TIMEOUT_MS = Number(process.env.ELECTRON_TEST_TIMEOUT_MS ?? 900_000);

if (!existsSync(extensionTestsPath)) fail(`${extensionTestsPath} is missing: run \`npm run build\` first`);

const vscodeExecutablePath = process.env.VSCODE_EXECUTABLE_PATH;
if (!vscodeExecutablePath) {
  try {
    await fetch(`${DOWNLOAD_HOST}/api/releases/stable`, { signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    fail(
      `cannot download VS Code: ${DOWNLOAD_HOST} is unreachable (${err instanceof Error ? err.message : String(err)}).\n` +
        'Run the same suite in code-server with `npm run test:integration`, or set VSCODE_EXECUTABLE_PATH to an installed VS Code.',
    );
  }
}

const workspace = existsSync(join(repoRoot, 'examples')) ? join(repoRoot, 'examples') : repoRoot;
const timer = setTimeout(() => fail(`the suite did not finish within ${TIMEOUT_MS / 1000} s`), TIMEOUT_MS);
try {
  const code = await runTests({
    ...(vscodeExecutablePath ? { vscodeExecutablePath } : {}),
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath,
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', mkdtempSync(join(tmpdir(), 'controller-lab-electron-'))],
  });
  clearTimeout(timer);
  process.exit(code);
} catch (err) {
  fail(`the integration suite failed under VS Code (electron): ${err instanceof Error ? err.message : String(err)}`);
}

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(message);
  process.exit(1);
}

// What a UI check gets: a real workbench page (code-server in Chromium, the packaged .vsix
// installed) and a few helpers to reach our views and webviews and to take screenshots.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const screenshotsDir = join(repoRoot, 'test-output', 'screenshots');

/**
 * Runs a command from the palette by its title, once the palette shows that very row.
 * @param {import('playwright-core').Page} page
 * @param {string} title
 */
export async function runCommand(page, title) {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  // An editor that has just opened may still take focus and close the palette as it opens, or the
  // keys may reach another picker still open: close it and open the palette again, as a person would.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible' });
    try {
      await input.fill(`>${title}`, { timeout: 5000 });
      await row.waitFor({ timeout: 10_000 });
      break;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
  await runShownRow(page, row, title);
}

/**
 * Runs a command if the palette knows its title; otherwise closes the palette.
 * @param {import('playwright-core').Page} page
 * @param {string} title
 */
export async function tryCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  try {
    await row.waitFor({ timeout: 3000 });
  } catch {
    await page.keyboard.press('Escape');
    return;
  }
  await runShownRow(page, row, title);
}

/**
 * Runs the palette's row for `title`, which it shows. Enter runs the focused row, which the palette
 * moves as it filters: under load it may still be on another command when this one shows. Enter
 * once it is this one; else click it.
 * @param {import('playwright-core').Page} page
 * @param {import('playwright-core').Locator} row
 * @param {string} title
 */
async function runShownRow(page, row, title) {
  const focused = page.locator('.quick-input-list .monaco-list-row.focused').first();
  for (let waited = 0; waited < 3000; waited += 100) {
    const label = await focused.innerText({ timeout: 500 }).catch(() => '');
    if (label.split('\n')[0].trim() === title) return page.keyboard.press('Enter');
    await page.waitForTimeout(100);
  }
  await row.click();
}

/** @param {import('playwright-core').Page} page */
export function workbench(page) {
  mkdirSync(screenshotsDir, { recursive: true });
  return {
    page,
    screenshotsDir,
    /** Waits for the workbench to be interactive. */
    async ready() {
      await page.locator('.monaco-workbench .activitybar').waitFor({ timeout: 90_000 });
    },
    /** Shows a view container from the activity bar (a click on the one shown would hide the side bar). */
    async clickActivity(/** @type {string} */ label) {
      const item = page.locator(`.activitybar [aria-label^="${label}"]`).first();
      await item.waitFor({ timeout: 30_000 });
      const sidebar = page.locator('.part.sidebar').first();
      const shown = async () =>
        (await sidebar.isVisible()) && (await item.evaluate((el) => el.closest('.action-item')?.classList.contains('checked') ?? false).catch(() => false));
      if (await shown()) return;
      await item.click();
      // A reload restores the last view container on its own schedule: if it came just before the
      // click, the click hid it again.
      await page.waitForTimeout(1000);
      if (!(await shown())) await item.click();
    },
    /** The visible rows of every tree/list in the side bar, as their text. */
    async treeRows() {
      return page.locator('.sidebar .monaco-list-row').allInnerTexts();
    },
    /** The active webview's document (two iframes deep in VS Code web). */
    webviewFrame() {
      return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    },
    /** Runs a command from the palette by its title. */
    runCommand: (/** @type {string} */ title) => runCommand(page, title),
    /** Saves a PNG into test-output/screenshots/ and returns its path. */
    async screenshot(/** @type {string} */ name) {
      const file = join(screenshotsDir, `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    },
  };
}

// Opening files as a person does in code-server, which has no native file dialog: VS Code's own
// dialog, the absolute path typed into it.
import { waitFor } from './debugView.mjs';
import { runCommand } from './workbench.mjs';

/**
 * Types a path into VS Code's own file dialog (its input settles after it opens) and accepts it.
 * @param {import('playwright-core').Page} page
 * @param {string} title
 * @param {string} path
 */
export async function chooseFile(page, title, path) {
  await page.locator('.quick-input-widget', { hasText: title }).first().waitFor({ state: 'visible' });
  const input = page.locator('.quick-input-widget input').first();
  await waitFor(`the ${title} dialog to show a path`, async () => ((await input.inputValue()) ?? '').startsWith('/'));
  await waitFor(`the path typed into ${title}`, async () => {
    await input.fill(path);
    await page.waitForTimeout(200);
    return (await input.inputValue()) === path;
  });
  await page.keyboard.press('Enter');
}

/**
 * Opens a file in an editor tab (File: Open File…). A fresh workbench opens its Welcome page on
 * its own schedule, which may take the dialog's focus: it tries again then, as a person would.
 * (Quick Open finds files only once the workspace's search has indexed them, which a loaded
 * machine delays.)
 * @param {import('playwright-core').Page} page
 * @param {string} path an absolute path
 */
export async function openFile(page, path) {
  const name = path.slice(path.lastIndexOf('/') + 1);
  for (let attempt = 1; ; attempt++) {
    try {
      await runCommand(page, 'File: Open File...');
      await chooseFile(page, 'Open File', path);
      await page.locator('.tab', { hasText: name }).first().waitFor({ timeout: 15_000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

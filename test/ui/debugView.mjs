// Run and Debug as a UI check reads it: the call stack's rows, the Variables view's rows, expanding
// a variable (by click, else from the keyboard), and waiting for a probe to answer.
import { runCommand } from './workbench.mjs';

/** Polls `probe` until it returns something truthy; a probe that throws counts as "not yet". */
export async function waitFor(what, probe, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The call stack's rows, whitespace folded. */
export async function callStackRows(page) {
  return (await page.locator('.debug-call-stack .monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
}

/** The Variables view's row whose name is `label` (`Object`, `spec`, `message = "…"`). */
export function variableRow(page, label) {
  return page.locator('.debug-variables .monaco-list-row', { has: page.locator('.monaco-tl-contents', { hasText: new RegExp(`^${label}\\b`) }) }).first();
}

/** Moves the Variables view's keyboard focus down to the row named `label`. */
async function focusVariableByKeyboard(page, label) {
  await runCommand(page, 'Focus on Variables View');
  await page.keyboard.press('Home');
  for (let i = 0; i < 60; i++) {
    const text = await page.locator('.debug-variables .monaco-list-row.focused .monaco-tl-contents').first().textContent().catch(() => '');
    if (new RegExp(`^${label}\\b`).test((text ?? '').trim())) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`the Variables view never focused ${label}`);
}

/** Expands (or collapses) a variable; a click that does not toggle it is followed by the keyboard. */
export async function expandVariable(page, label, expanded = true) {
  const row = variableRow(page, label);
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  const settled = async (ms) => {
    for (let waited = 0; waited < ms; waited += 100) {
      if ((await row.getAttribute('aria-expanded')) === String(expanded)) return true;
      await page.waitForTimeout(100);
    }
    return (await row.getAttribute('aria-expanded')) === String(expanded);
  };
  if (await settled(0)) return;
  await row.click();
  if (await settled(1500)) return;
  await focusVariableByKeyboard(page, label);
  await page.keyboard.press(expanded ? 'ArrowRight' : 'ArrowLeft');
  if (!(await settled(5000))) throw new Error(`${label} did not ${expanded ? 'expand' : 'collapse'}`);
}

/** Drags the side bar's sash so frame names and values are not cut off in a screenshot. */
export async function widenSidebar(page, width) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= width) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 2, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
}

/** Picks a configuration of the open folder's launch.json and starts it, as Run and Debug's picker does. */
export async function startConfiguration(page, configuration) {
  await runCommand(page, 'Debug: Select and Start Debugging');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: configuration }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.type(configuration);
  // One configuration's name may start another's: go down to the row that is this one exactly.
  const focusedName = () => page.locator('.quick-input-list .monaco-list-row.focused .label-name').first().innerText();
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: configuration }).first().waitFor();
  for (let i = 0; i < 10 && (await focusedName()).trim() !== configuration; i++) await page.keyboard.press('ArrowDown');
  if ((await focusedName()).trim() !== configuration) throw new Error(`no configuration named exactly ${configuration}`);
  await page.keyboard.press('Enter');
  await page.locator('.debug-toolbar').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.activitybar [aria-label^="Run and Debug"]').first().click();
  await page.locator('.debug-call-stack').first().waitFor({ state: 'visible', timeout: 30_000 });
}

/** Ends the session (Shift+F5) and waits for the debug toolbar to go. */
export async function stopSession(page) {
  await page.keyboard.press('Shift+F5');
  await waitFor('the session to end', async () => (await page.locator('.debug-toolbar').count()) === 0 || !(await page.locator('.debug-toolbar').isVisible()), 30_000);
}

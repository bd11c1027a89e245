// UI check: line breakpoints in a controller, as README's examples promise. In examples/ (the
// folder `npm start` opens), sets a breakpoint on a line of replicaset-controller/controller.ts's
// reconcile, starts the "ReplicaSet controller (line breakpoints)" configuration from
// examples/.vscode/launch.json, and waits for the JavaScript debugger to stop on that line
// (test-output/screenshots/line-breakpoint.png). Also checks the editor shows no problems there,
// and that the session's course (start, the JavaScript debugger's attach, end) is in the log.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runCommand } from '../workbench.mjs';

export const name = 'a line breakpoint in an example controller hits under "ReplicaSet controller (line breakpoints)"';

const CONTROLLER = 'replicaset-controller/controller.ts';
const CONFIGURATION = 'ReplicaSet controller (line breakpoints)';

async function waitFor(what, probe, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * @param {ReturnType<typeof import('../workbench.mjs').workbench>} workbench
 * @param {{ extensionLog: () => string }} host
 */
export async function run(workbench, host) {
  const { page } = workbench;
  const source = readFileSync(join(repoRoot, 'examples', CONTROLLER), 'utf8').split('\n');
  const line = source.findIndex((l) => l.includes('const want = ')) + 1;
  assert.ok(line > 0, 'the example has the line to break on');

  // Quick Open the file; the list fills as the workspace is searched, so pick the row naming it
  // (not whatever row shows first), and open Quick Open again if the tab does not come.
  const quickOpen = page.locator('.quick-input-widget input');
  const tab = page.locator('.tab', { hasText: 'controller.ts' }).first();
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+P');
    await quickOpen.waitFor({ state: 'visible' });
    await quickOpen.fill(CONTROLLER);
    try {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'controller.ts' }).first().click({ timeout: 15_000 });
      await tab.waitFor({ timeout: 15_000 });
      break;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  await editor.locator('.view-lines').first().click();

  // Go to the line and toggle a breakpoint there (F9), as a user would.
  await page.keyboard.press('Control+G');
  await quickOpen.waitFor({ state: 'visible' });
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.keyboard.press('F9');
  await editor.locator('.codicon-debug-breakpoint, .codicon-debug-breakpoint-unverified').first().waitFor({ timeout: 10_000 });

  await runCommand(page, 'Debug: Select and Start Debugging');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: CONFIGURATION }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.type(CONFIGURATION);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: CONFIGURATION }).first().waitFor();
  await page.keyboard.press('Enter');

  await page.locator('.debug-toolbar').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.activitybar [aria-label^="Run and Debug"]').first().click();
  const callStack = page.locator('.debug-call-stack').first();
  await callStack.waitFor({ state: 'visible', timeout: 30_000 });

  // The JavaScript debugger stops in reconcile, on the breakpoint's line of controller.ts.
  const paused = await waitFor(
    'the JavaScript debugger to stop on the breakpoint',
    async () => {
      const rows = (await callStack.locator('.monaco-list-row').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
      const onBreakpoint = rows.some((r) => /paused on breakpoint/i.test(r));
      // js-debug names the frame after the method: `Object.reconcile replicaset-controller/controller.ts 26:18`.
      const frame = rows.find((r) => /\breconcile\b.*controller\.ts/.test(r));
      return onBreakpoint && frame ? { rows, frame } : undefined;
    },
    120_000,
  );
  assert.match(paused.frame, new RegExp(`controller\\.ts ${line}:\\d+`), `top frame: ${paused.frame}`);
  await editor.locator('.codicon-debug-breakpoint-stackframe, .debug-top-stack-frame-line').first().waitFor({ timeout: 10_000 });
  const unverified = await editor.locator('.codicon-debug-breakpoint-unverified').count();
  assert.equal(unverified, 0, 'the breakpoint is verified');

  // The editor finds the 'controller-lab' types: no problems in the example.
  const problems = (await page.locator('.statusbar-item[id="status.problems"]').first().innerText()).replace(/\s+/g, ' ').trim();
  await workbench.screenshot('line-breakpoint');
  assert.match(problems, /^0\D+0$/, `problems in the status bar: ${problems}`);

  await page.keyboard.press('Shift+F5');
  await waitFor('the session to end', async () => (await page.locator('.debug-toolbar').count()) === 0 || !(await page.locator('.debug-toolbar').isVisible()), 30_000);

  // The session's course stays in the Controller Lab log after it ended.
  const session = `debug session "${CONFIGURATION}"`;
  const course = [`${session} starting`, `${session}: the controller process waits for the JavaScript debugger`, `${session}: the JavaScript debugger is attaching`, `${session} ended`];
  const logged = await waitFor('the session\'s course in the Controller Lab log', async () => {
    const log = host.extensionLog();
    return course.every((line) => log.includes(line)) ? log : undefined;
  }, 10_000).catch((err) => {
    throw new Error(`${err.message}:\n${host.extensionLog()}`);
  });
  const positions = course.map((line) => logged.indexOf(line));
  assert.deepEqual([...positions].sort((a, b) => a - b), positions, 'logged in the order it happened');
  console.log(JSON.stringify({ line, frame: paused.frame, callStack: paused.rows, problems }, null, 2));
}

import assert from 'node:assert/strict';

// UI check: the Controller Lab activity-bar item opens our view container, whose Clusters view
// starts the simulated cluster with no setup (no kubeconfig on this machine); Check Findings,
// below it, stays folded.

export const name = 'the Controller Lab activity bar item opens the Clusters view on the simulated cluster';

/** @param {ReturnType<typeof import('../workbench.mjs').workbench>} workbench */
export async function run(workbench) {
  const { page } = workbench;
  await workbench.clickActivity('Controller Lab');
  // Two views, each under its pane header: Clusters open, Check Findings folded until a check runs.
  const title = page.locator('.sidebar .composite.title').first();
  await title.waitFor({ timeout: 30_000 });
  assert.match(await title.innerText(), /Controller Lab/i);
  const clusters = page.locator('.sidebar .pane-header', { hasText: 'Clusters' }).first();
  const findings = page.locator('.sidebar .pane-header', { hasText: 'Check Findings' }).first();
  await findings.waitFor({ timeout: 30_000 });
  assert.equal(await clusters.getAttribute('aria-expanded'), 'true');
  assert.equal(await findings.getAttribute('aria-expanded'), 'false');
  const cluster = page.locator('.sidebar .monaco-list-row', { hasText: 'Simulated cluster' }).first();
  await cluster.waitFor({ timeout: 60_000 });
  await page.locator('.sidebar .monaco-list-row', { hasText: /synced/ }).first().waitFor({ timeout: 60_000 });
  await workbench.screenshot('activity-bar-clusters');
}

/* global document -- the function passed to page.waitForFunction runs in the workbench page */
// A 50,000-Pod informer inside the real extension host: code-server in Chromium with the packaged
// .vsix, connected through a kubeconfig to a simulated cluster in a process of its own (seeded in
// that process with realistic ~5.5 KB Pods, bench/lib/podJson.ts: one namespace of 10,000 and the
// rest spread over others). Starts a Pods informer from the palette (Watch Resource… → pods → All
// namespaces), as a user would, and measures:
//   - the extension host's RSS before and after the list (/proc/<pid>/status of the process whose
//     command line says extensionHost, the pid the extension itself reports);
//   - the longest event-loop stall in the extension host while the list loads, from its own
//     monitorEventLoopDelay samples (CONTROLLER_LAB_DIAGNOSTICS_FILE, src/vscode/hostDiagnostics.ts);
//   - that the status bar shows the list's progress while it loads, and how often it changed;
//   - the time from a click on the 10,000-Pod namespace in the Clusters tree to its first Pod rows.
// Not a test: a measurement, printed as a table. With CONTROLLER_LAB_CPU_PROFILE_DIR=<dir> the
// extension host also writes CPU profiles there, one per 10 s (what a stall was made of; writing
// one stalls the host itself for ~0.2 s, so measure stalls without it).
//
//   npm run package && node_modules/.bin/node bench/extensionHostPods.mjs [--pods 50000] [--big 10000]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SELF = fileURLToPath(import.meta.url);
const ROOT = resolve(dirname(SELF), '..');
const { values } = parseArgs({ options: { serve: { type: 'boolean' }, pods: { type: 'string' }, big: { type: 'string' } } });
const PODS = Number(values.pods ?? 50_000);
const BIG = Number(values.big ?? 10_000);
const BIG_NAMESPACE = 'big';
const OTHER_NAMESPACES = 8;

// ---- the simulated cluster, in its own process -----------------------------------------------

async function serve() {
  const { createSimCluster } = await import('../src/sim/simCluster.ts');
  const { startSimServer } = await import('../src/sim/server/simServer.ts');
  const { podJson } = await import('./lib/podJson.ts');
  const cluster = createSimCluster({ defaultNamespaces: true });
  const server = await startSimServer(cluster, {});
  const started = performance.now();
  const pods = { group: '', version: 'v1', resource: 'pods' };
  const namespaces = { group: '', version: 'v1', resource: 'namespaces' };
  const layout = [{ name: BIG_NAMESPACE, count: Math.min(BIG, PODS) }];
  const rest = PODS - layout[0].count;
  for (let i = 0; i < OTHER_NAMESPACES && rest > 0; i++) {
    layout.push({ name: `shop-${i}`, count: Math.floor(rest / OTHER_NAMESPACES) + (i < rest % OTHER_NAMESPACES ? 1 : 0) });
  }
  for (const { name, count } of layout) {
    cluster.create(namespaces, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    for (let i = 0; i < count; i++) {
      const pod = JSON.parse(podJson(name, i, 1, 0));
      // The server decides these.
      delete pod.metadata.resourceVersion;
      delete pod.metadata.uid;
      cluster.create(pods, name, pod);
    }
  }
  process.stdout.write(`${JSON.stringify({ kubeconfig: server.kubeconfigPath, seedMs: performance.now() - started, layout, simRssBytes: process.memoryUsage().rss })}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === 'exit') break;
  }
  await server.stop();
  await cluster.close();
  process.exit(0);
}

// ---- the workbench ------------------------------------------------------------------------------

function rssOf(pid) {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Moves the quick pick's focus to the row labelled `label` (ignoring its icon) and accepts it. */
async function pickFocused(page, label) {
  const focused = async () => (await page.locator('.quick-input-list .monaco-list-row.focused .label-name').first().innerText({ timeout: 5000 }).catch(() => '')).replace(/\s+/g, ' ').trim();
  for (let i = 0; i < 40 && (await focused()) !== label; i++) await page.keyboard.press(i < 20 ? 'ArrowDown' : 'ArrowUp');
  if ((await focused()) !== label) throw new Error(`no row ${label} in the quick pick (focused: ${await focused()})`);
  await page.keyboard.press('Enter');
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const sec = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function measure() {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const vsix = join(ROOT, `controller-lab-${version}.vsix`);
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\` first`);
  const { startCodeServer } = await import('../scripts/vscodeHost/codeServer.mjs');
  const { openBrowser } = await import('../scripts/vscodeHost/browser.mjs');
  const { runCommand } = await import('../test/ui/workbench.mjs');

  const scratch = mkdtempSync(join(tmpdir(), 'controller-lab-ehost-bench-'));
  const samplesFile = join(scratch, 'host-samples.jsonl');
  const workspace = mkdtempSync(join(scratch, 'workspace-'));
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let sim;
  let server;
  let browser;
  try {
    console.error(`seeding ${PODS.toLocaleString('en-US')} Pods into a simulated cluster…`);
    sim = spawn(process.execPath, [SELF, '--serve', '--pods', String(PODS), '--big', String(BIG)], { stdio: ['pipe', 'pipe', 'inherit'] });
    const simReady = new Promise((ok, fail) => {
      createInterface({ input: /** @type {import('node:stream').Readable} */ (sim.stdout) }).once('line', (l) => ok(JSON.parse(l)));
      sim.once('exit', (code) => fail(new Error(`the simulated cluster exited (${code})`)));
    });
    const seeded = /** @type {{ kubeconfig: string, seedMs: number, simRssBytes: number }} */ (await simReady);
    const context = /^current-context:\s*"?([^"\n]+)"?/m.exec(readFileSync(seeded.kubeconfig, 'utf8'))?.[1];
    console.error(`seeded in ${sec(seeded.seedMs)}; starting code-server…`);

    process.env.CONTROLLER_LAB_DIAGNOSTICS_FILE = samplesFile;
    server = await startCodeServer({
      workspace,
      vsix,
      settings: {
        'controllerLab.cluster': context,
        'controllerLab.kubeconfig': seeded.kubeconfig,
        'controllerLab.defaultInformers': [],
        'workbench.welcomePage.walkthroughs.openOnInstall': false,
      },
    });
    browser = await openBrowser();
    const { page } = browser;
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench .activitybar').waitFor({ timeout: 90_000 });
    await page.locator('.activitybar [aria-label^="Controller Lab"]').first().click();
    const statusItem = page.locator('.statusbar-item', { hasText: /synced/ }).first();
    await statusItem.waitFor({ timeout: 60_000 });
    // The walkthrough opens on the first activation and takes the keyboard: close it.
    const welcome = page.locator('.tab', { hasText: 'Welcome' });
    if (await welcome.first().waitFor({ timeout: 10_000 }).then(() => true, () => false)) {
      await runCommand(page, 'View: Close All Editors');
      await welcome.first().waitFor({ state: 'detached', timeout: 10_000 });
    }

    const samples = () => (existsSync(samplesFile) ? readFileSync(samplesFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
    while (samples().length < 4) await page.waitForTimeout(250);
    const hostPid = samples().at(-1).pid;
    const hostCommand = commandLine(hostPid);
    if (!/extensionHost/.test(hostCommand)) throw new Error(`pid ${hostPid} is not an extension host: ${hostCommand}`);
    await page.waitForTimeout(3000);
    const rssBefore = rssOf(hostPid);

    // Watch Resource… → pods → All namespaces → no label selector, as a user would.
    await runCommand(page, 'Controller Lab: Watch Resource…');
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'pods' }).first().waitFor({ timeout: 30_000 });
    await input.fill('pods');
    await pickFocused(page, 'pods');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'All namespaces' }).first().waitFor({ timeout: 30_000 });
    await pickFocused(page, 'All namespaces');
    await page.locator('.quick-input-widget', { hasText: 'Label selector' }).first().waitFor({ timeout: 30_000 });
    const listStarted = Date.now();
    await page.keyboard.press('Enter');

    // While the list loads: the status bar's text, sampled every 100 ms.
    const statusTexts = [];
    let synced;
    while (!synced) {
      const text = (await statusItem.innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
      if (text && text !== statusTexts.at(-1)?.text) statusTexts.push({ at: Date.now() - listStarted, text });
      if (/\b1\/1 synced\b/.test(text) && !/listed/.test(text)) synced = Date.now();
      if (Date.now() - listStarted > 600_000) throw new Error('the Pods informer did not sync within 10 minutes');
      await page.waitForTimeout(100);
    }
    const listMs = synced - listStarted;
    const during = samples().filter((s) => s.at >= listStarted && s.at <= synced);
    const loopMax = Math.max(...during.map((s) => s.loopMaxMs));
    const stalls = during.filter((s) => s.loopMaxMs > 100).length;
    const progress = statusTexts.filter((s) => /objects listed/.test(s.text));
    await page.waitForTimeout(5000);
    const rssAfter = rssOf(hostPid);

    // The Clusters tree: the Pods informer's row shows its namespaces; open the 10,000-Pod one.
    const nsRow = page.locator('.sidebar .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${BIG_NAMESPACE}$`) }) }).first();
    if (!(await nsRow.isVisible().catch(() => false))) {
      const informerRow = page.locator('.sidebar .monaco-list-row', { hasText: /^\s*pods\b/ }).first();
      if ((await informerRow.getAttribute('aria-expanded')) !== 'true') await informerRow.click();
    }
    await nsRow.waitFor({ timeout: 60_000 });
    const nsText = (await nsRow.innerText()).replace(/\s+/g, ' ').trim();
    const expandFrom = Date.now();
    await page.evaluate(() => (globalThis.__expandStart = performance.now()));
    await nsRow.locator('.monaco-tl-twistie').click();
    const expandMs = await page.waitForFunction(
      (ns) => {
        const rows = [...document.querySelectorAll('.sidebar .monaco-list-row[aria-level]')];
        const at = rows.findIndex((r) => r.querySelector('.label-name')?.textContent === ns);
        const next = rows[at + 1];
        return at >= 0 && next && /^web-/.test(next.querySelector('.label-name')?.textContent ?? '') ? performance.now() - globalThis.__expandStart : false;
      },
      BIG_NAMESPACE,
      { polling: 'raf', timeout: 60_000 },
    ).then((h) => h.jsonValue());
    await page.waitForTimeout(1000);
    const expandLoopMax = Math.max(0, ...samples().filter((s) => s.at >= expandFrom).map((s) => s.loopMaxMs));
    const podRows = await page.locator('.sidebar .monaco-list-row', { hasText: /^\s*web-/ }).count();
    await page.screenshot({ path: join(ROOT, 'test-output', 'ehost-pods.png') }).catch(() => {});

    const rows = [
      ['Pods in the simulated cluster', `${PODS.toLocaleString('en-US')} (${BIG_NAMESPACE}: ${Math.min(BIG, PODS).toLocaleString('en-US')}), seeded in ${sec(seeded.seedMs)}`],
      ['extension host RSS before the informer', mb(rssBefore)],
      ['extension host RSS after the list (+5 s)', `${mb(rssAfter)} (+${mb(rssAfter - rssBefore)})`],
      ['list to synced (Enter → status bar "1/1 synced")', sec(listMs)],
      ['longest event-loop stall while listing', `${loopMax.toFixed(0)} ms (${stalls} of ${during.length} 250 ms samples over 100 ms)`],
      ['status bar progress while listing', progress.length ? `${progress.length} updates, e.g. "${progress[Math.floor(progress.length / 2)].text}"` : 'none seen'],
      [`expand ${BIG_NAMESPACE} (${nsText.replace(/^big\s*/, '')}) → first Pod row`, `${expandMs.toFixed(0)} ms (${podRows} rows rendered; longest stall ${expandLoopMax.toFixed(0)} ms)`],
      ['machine', `${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`],
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    console.log(rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n'));
    console.log(JSON.stringify({ hostPid, statusTexts: statusTexts.slice(0, 40), loopByTime: during.map((s) => [s.at - listStarted, Math.round(s.loopMaxMs)]) }));
  } catch (err) {
    await browser?.page.screenshot({ path: join(ROOT, 'test-output', 'ehost-pods-FAILED.png') }).catch(() => {});
    throw err;
  } finally {
    await browser?.browser.close().catch(() => {});
    server?.stop();
    sim?.stdin?.write('exit\n');
    setTimeout(() => sim?.kill('SIGKILL'), 5000).unref();
    rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}

if (values.serve) await serve();
else await measure();

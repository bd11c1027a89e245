import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDir, startLoopbackApi, writeKubeconfig } from '../kube/support/loopbackApi.ts';
import { startCli } from './support/runCli.ts';

// A command stopped (Ctrl-C in another terminal, a supervisor's SIGTERM, a closed terminal's
// SIGHUP) while a kubeconfig's exec credential plugin waits for a login takes the plugin, and what
// the plugin started, along: none of them may be left running.

function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  test(`${signal} while an exec credential plugin waits stops the plugin and its helper, and the command exits at once`, { timeout: 30_000 }, async (t) => {
    const api = await startLoopbackApi();
    t.after(() => api.close());
    const { dir, cleanup } = scratchDir();
    t.after(cleanup);
    const plugin = path.join(dir, 'plugin.mjs');
    writeFileSync(plugin, `import { writeFileSync } from 'node:fs';
      import { spawn } from 'node:child_process';
      const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });
      writeFileSync(process.argv[2] + '/pids', process.pid + ' ' + helper.pid);
      process.stderr.write('Open https://login.example/device in your browser\\n');
      setInterval(() => {}, 1000);`);
    const kubeconfig = writeKubeconfig(dir, {
      server: api.url,
      user: { token: undefined, exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [plugin, dir], interactiveMode: 'Never' } },
    });
    const cli = startCli(['watch', 'configmaps', '--kubeconfig', kubeconfig]);
    const pidsFile = path.join(dir, 'pids');
    await waitFor(() => existsSync(pidsFile) && readFileSync(pidsFile, 'utf8').includes(' '), 20_000);
    const pids = readFileSync(pidsFile, 'utf8').split(' ').map(Number);
    t.after(() => {
      for (const pid of pids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    });
    const sent = Date.now();
    cli.child.kill(signal);
    const result = await cli.done;
    assert.ok(Date.now() - sent < 5_000, `exited ${Date.now() - sent} ms after ${signal}`);
    assert.ok(result.signal === signal || (result.code ?? 0) > 128, `exit ${result.code} ${result.signal}`);
    await waitFor(() => pids.every((pid) => !isRunning(pid)), 2_000).catch(() => undefined);
    for (const pid of pids) assert.equal(isRunning(pid), false, `process ${pid} of the plugin was left running after ${signal}`);
  });
}

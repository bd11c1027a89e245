// Starts a real VS Code (code-server) on 127.0.0.1 in its own process group, with throwaway user
// data, telemetry and the marketplace off. Stopping kills the whole group: killing only the main
// PID leaves file-watcher children that a later run could attach to.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCodeServer } from './install.mjs';

/** A free TCP port on loopback. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

const USER_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'security.workspace.trust.enabled': false,
  // No prompts or empty panes over what the UI checks look at.
  'git.openRepositoryInParentFolders': 'never',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/**
 * @param {{ workspace: string, port?: number, extensionsDir?: string, vsix?: string, smokeTestDriver?: boolean,
 *           settings?: Record<string, unknown>, verbose?: boolean, log?: (m: string) => void }} options
 */
export async function startCodeServer(options) {
  const log = options.log ?? ((m) => console.error(m));
  const { entry, node } = ensureCodeServer({ log });
  const home = mkdtempSync(join(tmpdir(), 'controller-lab-vscode-'));
  const userData = join(home, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify({ ...USER_SETTINGS, ...options.settings }, null, 2));
  const extensionsDir = options.extensionsDir ?? join(home, 'extensions');
  mkdirSync(extensionsDir, { recursive: true });
  const env = { ...process.env, EXTENSIONS_GALLERY: '{}', XDG_DATA_HOME: join(home, 'xdg'), XDG_CONFIG_HOME: join(home, 'xdg-config') };

  if (options.vsix) {
    execFileSync(node, [entry, '--extensions-dir', extensionsDir, '--user-data-dir', userData, '--install-extension', options.vsix, '--force'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  }

  const port = options.port ?? (await freePort());
  const config = join(home, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const args = [entry, '--config', config, '--user-data-dir', userData, '--extensions-dir', extensionsDir,
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust'];
  if (options.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  args.push(options.workspace);
  const child = spawn(node, args, { detached: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (/** @type {Buffer} */ d) => {
    output = (output + d.toString()).slice(-20_000);
    if (options.verbose) process.stderr.write(d);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
    } catch {
      // already gone
    }
    // The throwaway profile goes too (an extensions dir passed in by the caller stays).
    rmSync(home, { recursive: true, force: true, maxRetries: 3 });
  };
  process.once('exit', stop);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`code-server did not answer /healthz within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  /** @type {Promise<number | null>} resolves when code-server's main process ends */
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  return { url, port, home, extensionsDir, stop, exited, output: () => output };
}

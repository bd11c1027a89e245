// Debian packages the test set-up and the VS Code host's install need, installed with apt-get
// (through sudo when not root) only when missing.
import { execFileSync, spawnSync } from 'node:child_process';

const say = (/** @type {string} */ m) => console.log(`setup: ${m}`);

/** Debian packages: chromium (UI and extension-host tests), libkrb5-dev (code-server's native addon). */
export function systemPackages(wanted = ['chromium', 'libkrb5-dev']) {
  const missing = wanted.filter((pkg) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
    return !(r.status === 0 && r.stdout.includes('install ok installed'));
  });
  if (missing.length === 0) return;
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).error) {
    throw new Error(`${missing.join(' and ')} must be installed (the VS Code host and its tests need them), and apt-get is not here to do it`);
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  say(`installing ${missing.join(', ')} with apt-get`);
  const apt = (/** @type {string[]} */ args) =>
    execFileSync(sudo[0] ?? 'apt-get', [...(sudo.length ? ['apt-get'] : []), ...args], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  apt(['update']);
  apt(['install', '-y', ...missing]);
}

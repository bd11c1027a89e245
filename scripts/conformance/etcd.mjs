// etcd for the real API server, from Debian's packages (bookworm names it etcd-server).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const ETCD = '/usr/bin/etcd';

export function ensureEtcd(log = console.log) {
  if (existsSync(ETCD)) return ETCD;
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).error) {
    throw new Error(`${ETCD} is missing and apt-get is not here to install Debian's etcd-server`);
  }
  const asRoot = process.getuid?.() === 0;
  const apt = (/** @type {string[]} */ args) =>
    execFileSync(asRoot ? 'apt-get' : 'sudo', asRoot ? args : ['apt-get', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  log('installing etcd-server with apt-get');
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', 'etcd-server']);
  // Where systemd runs, the package also starts a system etcd on 2379; runs start their own on free ports.
  return ETCD;
}

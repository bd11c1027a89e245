import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm start` on a fresh machine installs code-server before anything else has run: its kerberos
// addon compiles only with Debian's libkrb5-dev, so installing code-server asks apt-get for it first.
// dpkg-query, apt-get, sudo and npm are stand-ins here: dpkg-query finds nothing installed, apt-get
// records what it was asked, npm fails (nothing is downloaded).

const root = join(import.meta.dirname, '../../..');

test('installing code-server first installs libkrb5-dev, which its kerberos addon compiles against', () => {
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-prereq-'));
  const bin = join(dir, 'bin');
  const asked = join(dir, 'apt-get.log');
  const stubs: Record<string, string> = {
    'dpkg-query': 'exit 1',
    'apt-get': `echo "$*" >> '${asked}'`,
    sudo: 'exec "$@"',
    npm: 'echo "npm: offline in this test" >&2; exit 1',
  };
  mkdirSync(bin);
  for (const [name, body] of Object.entries(stubs)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const install = join(root, 'scripts', 'vscodeHost', 'install.mjs');
  const run = spawnSync(process.execPath, ['-e', `import(${JSON.stringify(install)}).then((m) => m.ensureCodeServer({ log() {} }))`], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, CONTROLLER_LAB_CACHE: join(dir, 'cache') },
  });
  assert.notEqual(run.status, 0, 'npm is offline here, so the install itself fails');
  assert.ok(existsSync(asked), `apt-get was never asked for anything:\n${run.stderr}`);
  const calls = readFileSync(asked, 'utf8').trim().split('\n').filter((c) => c !== '--version');
  assert.deepEqual(calls, ['update', 'install -y libkrb5-dev'], 'libkrb5-dev only: code-server needs no browser');
});

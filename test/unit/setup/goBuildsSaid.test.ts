import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm test -- go` on a fresh machine first compiles controller-runtime and every test binary, which
// takes minutes: the set-up says so before it starts, not only once it is done, and builds only
// what the stages run use. `go` is a stand-in that prints what it was asked, and where.

const root = join(import.meta.dirname, '../../..');

test('the Go build set-up says what it is building before it builds', () => {
  const bin = join(mkdtempSync(join(tmpdir(), 'controller-lab-gobuilds-')), 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'go'), '#!/bin/sh\necho "GO $* in $(pwd)"\n');
  chmodSync(join(bin, 'go'), 0o755);
  const setup = join(root, 'scripts', 'testSetup.mjs');
  const run = spawnSync(process.execPath, ['-e', `import(${JSON.stringify(setup)}).then((m) => m.warmGoBuilds())`], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` },
  });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.match(lines[0] ?? '', /^setup: building the Go modules and their tests \(go, examples\/go-guestbook, test\/check\/go\): minutes the first time/);
  assert.match(lines[1] ?? '', /^GO mod download/, 'said before the first go command');
});

test('npm test -- go builds the Go modules the go stage runs, not the check stage\'s controllers', () => {
  const bin = join(mkdtempSync(join(tmpdir(), 'controller-lab-gobuilds-')), 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'go'), '#!/bin/sh\necho "GO $* in $(pwd)"\n');
  chmodSync(join(bin, 'go'), 0o755);
  const setup = join(root, 'scripts', 'testSetup.mjs');
  const run = spawnSync(process.execPath, ['-e', `import(${JSON.stringify(setup)}).then((m) => m.setUpFor(['go']))`], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` },
  });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^setup: building the Go modules and their tests \(go, examples\/go-guestbook\): /m);
  assert.match(run.stdout, /^GO build \.\/\.\.\. in .*\/examples\/go-guestbook$/m);
  assert.doesNotMatch(run.stdout, /test\/check\/go$/m, 'test/check/go is the check stage\'s');
});

test('the set-up of the integration stage asks apt-get for its Debian packages, not for the stage names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'controller-lab-setup-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const asked = join(dir, 'apt-get.log');
  const stubs: Record<string, string> = { 'dpkg-query': 'exit 1', 'apt-get': `echo "$*" >> '${asked}'`, sudo: 'exec "$@"', npm: 'exit 1' };
  for (const [name, body] of Object.entries(stubs)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const setup = join(root, 'scripts', 'testSetup.mjs');
  spawnSync(process.execPath, ['-e', `import(${JSON.stringify(setup)}).then((m) => m.setUpFor(['integration']))`], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, CONTROLLER_LAB_CACHE: join(dir, 'cache') },
  });
  const installs = readFileSync(asked, 'utf8').split('\n').filter((c) => c.startsWith('install'));
  // (code-server's install asks for libkrb5-dev again: the stand-in dpkg-query never finds it.)
  assert.equal(installs[0], 'install -y chromium libkrb5-dev');
  assert.ok(installs.every((c) => !c.includes('integration')), installs.join('\n'));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_NODE_FLAGS } from '../../../scripts/cliBuild.mjs';
import { bundleCli } from './support/bundleCli.ts';
import { tooOldMessage } from '../../../src/cli/nodeRuntime.ts';

// bin/controller-lab, the command npm links: it starts dist/cli.cjs on the package's own Node 24
// (so Debian's Node 20 on the PATH is never asked to run it), through npm's symlink, with the V8
// flags the bundle's shebang would give.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LAUNCHER = join(ROOT, 'bin', 'controller-lab');

test('the launcher gives node the same V8 flags as the bundle\'s shebang', () => {
  const exec = readFileSync(LAUNCHER, 'utf8').split('\n').find((l) => l.startsWith('exec '));
  assert.equal(exec, `exec "$node" ${CLI_NODE_FLAGS.join(' ')} "$package/dist/cli.cjs" "$@"`);
  // The same, when Node reads the file (`node node_modules/.bin/controller-lab`).
  assert.ok(readFileSync(LAUNCHER, 'utf8').includes(`spawn(node, [${CLI_NODE_FLAGS.map((f) => `'${f}'`).join(', ')}, join(pkg, 'dist/cli.cjs')`));
});

test('through a symlink, with an old node first on the PATH, the command runs on the package\'s Node', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-launcher-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // The installed layout, built here so the test needs no earlier `npm run build`: bin/, dist/,
  // package.json and the `node` dependency in node_modules.
  const pkg = join(dir, 'lib', 'node_modules', 'controller-lab');
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  mkdirSync(join(pkg, 'node_modules'), { recursive: true });
  copyFileSync(LAUNCHER, join(pkg, 'bin', 'controller-lab'));
  chmodSync(join(pkg, 'bin', 'controller-lab'), 0o755);
  await bundleCli(join(pkg, 'dist', 'cli.cjs'));
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'controller-lab', version: '1.2.3' }));
  symlinkSync(join(ROOT, 'node_modules', 'node'), join(pkg, 'node_modules', 'node'));
  // A `node` that would fail the run if it were used.
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'node'), '#!/bin/sh\necho "the PATH\'s node was used" >&2\nexit 3\n');
  chmodSync(join(bin, 'node'), 0o755);
  symlinkSync('../lib/node_modules/controller-lab/bin/controller-lab', join(bin, 'controller-lab'));
  const r = spawnSync(join(bin, 'controller-lab'), ['--version'], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^controller-lab 1\.2\.3 \(node v24\./);
});

test('on too old a Node, the command says how to get Node 24, also when npm skipped the install script that fetches it', () => {
  const message = tooOldMessage('v20.20.2');
  assert.match(message, /^controller-lab needs Node\.js 22\.19 or newer, and this is v20\.20\.2\.\n/);
  assert.match(message, /--allow-scripts=esbuild,node/);
});

test('`node node_modules/.bin/controller-lab`, whichever node that is, runs the command on the package\'s Node', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-launcher-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const project = join(dir, 'project');
  const pkg = join(project, 'node_modules', 'controller-lab');
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  mkdirSync(join(pkg, 'node_modules'), { recursive: true });
  mkdirSync(join(project, 'node_modules', '.bin'));
  copyFileSync(LAUNCHER, join(pkg, 'bin', 'controller-lab'));
  chmodSync(join(pkg, 'bin', 'controller-lab'), 0o755);
  await bundleCli(join(pkg, 'dist', 'cli.cjs'));
  symlinkSync(join(ROOT, 'node_modules', 'node'), join(pkg, 'node_modules', 'node'));
  symlinkSync('../controller-lab/bin/controller-lab', join(project, 'node_modules', '.bin', 'controller-lab'));
  // Debian's Node 20 where there is one (what `node` is on this project's machines), else this one.
  const nodes = [...new Set(['/usr/bin/node', process.execPath].filter((n) => spawnSync(n, ['--version']).status === 0))];
  // The package is an ES module package; the launcher is read as CommonJS without that.
  for (const type of ['module', undefined]) {
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'controller-lab', version: '1.2.3', ...(type ? { type } : {}) }));
    for (const node of nodes) {
      const r = spawnSync(node, ['node_modules/.bin/controller-lab', '--version'], { cwd: project, encoding: 'utf8' });
      assert.equal(r.status, 0, `${node}, type ${type}: ${r.stderr}`);
      assert.match(r.stdout, /^controller-lab 1\.2\.3 \(node v24\./, `${node}, type ${type}`);
      const failing = spawnSync(node, ['node_modules/.bin/controller-lab', 'no-such-command'], { cwd: project, encoding: 'utf8' });
      assert.equal(failing.status, 2, `the command's exit code comes through: ${failing.stderr}`);
    }
  }
});

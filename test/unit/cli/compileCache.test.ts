import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bundleCli } from './support/bundleCli.ts';

// The command keeps V8's compiled code between runs, in the user's own cache folder.

const run = promisify(execFile);

/** Every file under `dir`. */
function files(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];
}

test('controller-lab keeps its compiled code in the user cache folder, and not when Node is told not to', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cl-compile-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cli = path.join(dir, 'cli.cjs');
  await bundleCli(cli);
  mkdirSync(path.join(dir, 'home'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: path.join(dir, 'home') };
  for (const name of ['XDG_CACHE_HOME', 'NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE']) delete env[name];
  const cache = path.join(dir, 'home', '.cache', 'controller-lab', 'node-compile-cache');

  const first = await run(process.execPath, [cli, 'watch', '--help'], { env });
  assert.match(first.stdout + first.stderr, /usage: controller-lab watch/);
  assert.ok(files(cache).length > 0, `nothing cached in ${cache}`);

  // XDG_CACHE_HOME moves it; NODE_DISABLE_COMPILE_CACHE turns it off.
  const xdg = path.join(dir, 'xdg');
  mkdirSync(xdg);
  await run(process.execPath, [cli, 'watch', '--help'], { env: { ...env, XDG_CACHE_HOME: xdg } });
  assert.ok(files(path.join(xdg, 'controller-lab', 'node-compile-cache')).length > 0);
  // A cache folder that cannot be made: the command runs all the same, without a cache.
  const proc = await run(process.execPath, [cli, 'watch', '--help'], { env: { ...env, XDG_CACHE_HOME: '/proc/controller-lab-test' }, timeout: 20_000 });
  assert.match(proc.stdout, /usage: controller-lab watch/);
  const off = path.join(dir, 'off');
  mkdirSync(off);
  await run(process.execPath, [cli, 'watch', '--help'], { env: { ...env, XDG_CACHE_HOME: off, NODE_DISABLE_COMPILE_CACHE: '1' } });
  assert.deepEqual(files(off), []);
});

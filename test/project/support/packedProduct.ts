import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { delimiter, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// The product as a user has it: packed with `npm pack`, installed with `npm install -g` into a
// folder of its own, and run with the checkout and its Node off the PATH.

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MINUTES = 60_000;

export interface Ran {
  code: number | null;
  out: string;
}

/** The machine's PATH without this checkout (its node_modules/.bin has a controller-lab and Node 24). */
export function pathOutsideCheckout(prefixBin: string): string {
  const inside = (p: string) => resolve(p).startsWith(resolve(ROOT) + sep) || resolve(p) === resolve(ROOT);
  return [prefixBin, ...(process.env.PATH ?? '').split(delimiter).filter((p) => p && !inside(p))].join(delimiter);
}

/** `npm pack` (the stage built dist/ already) into `work`, then a global install into `work/prefix`: the environment that runs it. */
export function installPacked(work: string): { prefix: string; env: NodeJS.ProcessEnv } {
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(packed.status, 0, packed.stderr);
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) ?? '');
  const prefix = join(work, 'prefix');
  const installed = spawnSync('npm', ['install', '-g', '--prefix', prefix, tarball, '--no-audit', '--no-fund'], { encoding: 'utf8' });
  assert.equal(installed.status, 0, installed.stderr);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: pathOutsideCheckout(join(prefix, 'bin')) };
  delete env.CONTROLLER_LAB;
  delete env.KUBECONFIG;
  return { prefix, env };
}

export function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (err) => (out += `\n${err.message}`));
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out });
    });
  });
}

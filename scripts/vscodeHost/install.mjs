// Installs the VS Code test host (code-server from npm) once per machine, outside the clone, so that
// later runs take seconds. Idempotent and safe to interrupt: every piece is built in a temporary
// directory and renamed into place only when complete.
//
//   node scripts/vscodeHost/install.mjs     prints the code-server entry point once it is installed
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemPackages } from '../systemPackages.mjs';

export const CODE_SERVER_VERSION = '4.139.1';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Everything machine-wide lives here (override with CONTROLLER_LAB_CACHE). */
export function cacheDir() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return process.env.CONTROLLER_LAB_CACHE || join(base, 'controller-lab');
}

/**
 * The Node 24 binary that code-server and its native addons are built for: the project's `node`
 * devDependency (the system Node may be older than the extension host needs).
 */
export function node24() {
  const local = join(repoRoot, 'node_modules', 'node', 'bin', 'node');
  const bin = existsSync(local) ? local : process.execPath;
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  const [major = 0, minor = 0] = version.slice(1).split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 19)) {
    throw new Error(`Node >= 22.19 is needed, found ${version} at ${bin}; run \`npm ci\` first`);
  }
  return { bin, version };
}

/** Paths of an installed code-server; nothing is checked. */
export function codeServerPaths() {
  const dir = join(cacheDir(), `code-server-${CODE_SERVER_VERSION}`);
  return { dir, entry: join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js') };
}

/** Ensures code-server is installed; returns its entry point and the Node to run it with. */
export function ensureCodeServer({ log = (/** @type {string} */ m) => console.error(m) } = {}) {
  const node = node24();
  const { dir, entry } = codeServerPaths();
  if (existsSync(join(dir, '.complete'))) return { entry, node: node.bin };

  // code-server's kerberos addon compiles from source (its prebuilt binary is a download from
  // GitHub): without the Kerberos headers its install fails minutes in. `npm start` comes here
  // first on a fresh machine, before any test set-up.
  systemPackages(['libkrb5-dev']);
  const headers = ensureNodeHeaders(node.version, log);
  mkdirSync(cacheDir(), { recursive: true });
  const tmp = mkdtempSync(`${dir}.partial-`);
  const started = Date.now();
  log(`installing code-server@${CODE_SERVER_VERSION} into ${dir} (first run only, a few minutes)…`);
  try {
    writeFileSync(join(tmp, 'package.json'), JSON.stringify({ private: true, name: 'controller-lab-vscode-host' }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `code-server@${CODE_SERVER_VERSION}`], {
      cwd: tmp,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        // Native addons (kerberos, …) must compile against the Node that will run them.
        PATH: `${dirname(node.bin)}:${process.env.PATH ?? ''}`,
        npm_config_nodedir: headers,
        npm_config_update_notifier: 'false',
      },
    });
    if (!existsSync(join(tmp, 'node_modules', 'code-server', 'out', 'node', 'entry.js'))) {
      throw new Error('code-server installed without out/node/entry.js');
    }
    writeFileSync(join(tmp, '.complete'), `${CODE_SERVER_VERSION} ${node.version}\n`);
    if (!existsSync(join(dir, '.complete'))) rmSync(dir, { recursive: true, force: true });
    publish(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  log(`code-server installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return { entry, node: node.bin };
}

/**
 * The `node` devDependency ships only the binary; native builds need include/node, which the npm
 * registry's node-linux-<arch> package carries for the very same version.
 */
function ensureNodeHeaders(/** @type {string} */ version, /** @type {(m: string) => void} */ log) {
  const dir = join(cacheDir(), `node-${version}-${process.platform}-${process.arch}`);
  if (existsSync(join(dir, 'include', 'node', 'node.h'))) return dir;
  mkdirSync(cacheDir(), { recursive: true });
  const tmp = mkdtempSync(`${dir}.partial-`);
  try {
    const pkg = `node-${process.platform}-${process.arch}@${version.slice(1)}`;
    log(`fetching Node headers (${pkg})…`);
    execFileSync('npm', ['pack', '--silent', pkg, '--pack-destination', tmp], { stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${pkg} produced no tarball`);
    const unpacked = join(tmp, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['xzf', join(tmp, tarball), '-C', unpacked, '--strip-components=1', 'package/include']);
    if (!existsSync(join(unpacked, 'include', 'node', 'node.h'))) throw new Error(`${pkg} has no include/node/node.h`);
    publish(unpacked, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

/** Moves a finished directory into place; a concurrent run that got there first wins. */
function publish(/** @type {string} */ from, /** @type {string} */ to) {
  try {
    renameSync(from, to);
  } catch (err) {
    if (!existsSync(to)) throw err;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(ensureCodeServer().entry);
}

import type * as childProcess from 'node:child_process';
import { createRequire } from 'node:module';
import { constants } from 'node:os';

// controller-lab needs Node 22.19 or newer (client-node's HTTP client, undici 8, and type stripping
// for TypeScript controllers). Installed with npm, the package brings Node 24 as its `node`
// dependency, so on an older Node (Debian's Node 20, say) the command runs itself again on that one.

const MINIMUM = [22, 19] as const;

/** Whether `version` (as process.versions.node) is older than the command needs. */
export function isTooOld(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1]);
}

/** The Node binary of the package's `node` dependency, if it was installed. */
export function bundledNode(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('node/bin/node');
  } catch {
    return undefined;
  }
}

export function tooOldMessage(version: string): string {
  return (
    `controller-lab needs Node.js ${MINIMUM.join('.')} or newer, and this is ${version}.\n` +
    'Install Node 24 (e.g. `nvm install 24`), or install controller-lab with npm (`npm install -g controller-lab-*.tgz`), which brings Node 24 along.\n' +
    // The `node` dependency fetches Node 24 in an install script, which npm may be set to skip.
    'Installed with npm already? Its `node` dependency fetches Node 24 in an install script: install again with `--allow-scripts=esbuild,node` where npm blocks install scripts (not with --ignore-scripts).\n'
  );
}

/**
 * Runs this command again on `node`, with the same V8 flags and arguments, and resolves with its
 * exit code. Signals sent to this process are passed on; a child killed by a signal is reported
 * as the shell does (128 + the signal's number).
 */
export function rerunOn(node: string): Promise<number> {
  const script = process.argv[1] ?? '';
  // Required here, not imported: every other start of the command would load it for nothing.
  const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof childProcess;
  const child = spawn(node, [...process.execArgv, script, ...process.argv.slice(2)], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = signals.map((s) => [s, forward(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  return new Promise((resolve) => {
    child.on('error', (err) => {
      process.stderr.write(`controller-lab: could not start ${node}: ${err.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      for (const [s, h] of handlers) process.off(s, h);
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

// The controller-lab command: a table of subcommands, each a module loaded only when asked for,
// so `controller-lab watch` never pays for the simulator and vice versa.
//
// To add a subcommand, add one line to `subcommands`, and its bundle to SUBCOMMANDS in
// scripts/cliBuild.mjs (the build fails until it has one). Its module exports
// `async function main(argv: string[]): Promise<number>` (argv: the words after the subcommand;
// the result: the exit code) and handles its own `--help`.

import { mkdirSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { bundledNode, isTooOld, rerunOn, tooOldMessage } from './nodeRuntime.ts';

// Node keeps V8's compiled code for the command's bundles on disk between runs (its compile cache):
// later runs start a few ms sooner. In the user's own cache folder, not the shared temporary one,
// where another user could plant code for us to load. NODE_COMPILE_CACHE and
// NODE_DISABLE_COMPILE_CACHE still decide, as for any Node program.
if (!process.env.NODE_COMPILE_CACHE) {
  const dir = compileCacheDir();
  if (dir !== undefined) (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(dir);
}

/**
 * `controller-lab/node-compile-cache` in the user's cache folder ($XDG_CACHE_HOME, else ~/.cache),
 * made here one level at a time: none when that cannot be done. (Node's own recursive mkdir, which
 * enableCompileCache would use, never returns under some paths, e.g. below /proc.)
 */
function compileCacheDir(): string | undefined {
  const xdg = process.env.XDG_CACHE_HOME;
  let dir = xdg || homedir();
  for (const part of [...(xdg ? [] : ['.cache']), 'controller-lab', 'node-compile-cache']) {
    dir = path.join(dir, part);
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
  }
  return dir;
}

export interface SubcommandModule {
  main(argv: string[]): Promise<number>;
}

interface Subcommand {
  /** One line for the top-level usage. */
  summary: string;
  load(): Promise<SubcommandModule>;
}

const subcommands: Record<string, Subcommand> = {
  sim: { summary: 'serve a simulated cluster over HTTPS (kubeconfig printed); `sim fault …` drives its faults', load: () => import('./sim.ts') },
  run: { summary: 'run your controller (TS/JS) against --sim or a kubeconfig; --until-idle, --trace', load: () => import('./run.ts') },
  watch: { summary: 'watch a resource through the informer and print its events', load: () => import('./watch.ts') },
  init: { summary: 'wire a Go project (kubebuilder layout) to Controller Lab: `init go [DIR]`', load: () => import('./init.ts') },
  check: { summary: 'find a controller\'s bugs: stale, intermediate and unobserved state, writes that are not idempotent', load: () => import('./check.ts') },
};

function usage(): string {
  const width = Math.max(...Object.keys(subcommands).map((n) => n.length));
  const lines = Object.entries(subcommands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: controller-lab <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nRun 'controller-lab <command> --help' for a command's options; 'controller-lab --version' prints the version.\n`;
}

async function run(argv: string[]): Promise<number> {
  if (isTooOld(process.versions.node)) {
    const node = bundledNode();
    if (!node) {
      process.stderr.write(tooOldMessage(process.version));
      return 2;
    }
    return rerunOn(node);
  }
  const [first, ...rest] = argv;
  if (first === undefined) {
    process.stderr.write(usage());
    return 2;
  }
  if (first === '--version' || first === '-v' || first === 'version') {
    const { productVersion } = await import('./version.ts');
    process.stdout.write(`controller-lab ${productVersion()} (node ${process.version})\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? rest[0] : undefined;
    if (topic && subcommands[topic]) return (await subcommands[topic].load()).main(['--help']);
    process.stdout.write(usage());
    return 0;
  }
  const command = subcommands[first];
  if (!command) {
    process.stderr.write(`controller-lab: unknown command "${first}"\n\n${usage()}`);
    return 2;
  }
  return (await command.load()).main(rest);
}

// A reader that stops early (`controller-lab sim clients -o json | head`) closes the pipe: there is
// nothing left to say, and no stack trace to print.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // A bug, not a user error: say so in one line; CONTROLLER_LAB_DEBUG=1 shows the stack.
    const detail = process.env.CONTROLLER_LAB_DEBUG ? (err as Error)?.stack : String((err as Error)?.message ?? err);
    process.stderr.write(`controller-lab: internal error: ${detail}\n`);
    process.exitCode = 70;
  },
);

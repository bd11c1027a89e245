// `controller-lab init go [DIR]`: wires a Go project to Controller Lab (src/setup) and prints one
// line per change, then the commands to run next.
import { resolve } from 'node:path';
import { GoProjectSetupError, setUpGoProject, setupLines } from '../setup/index.ts';
import { parseCommandLine, UsageError } from './args.ts';
import { fileErrorInWords } from './outputPath.ts';

const HELP = `usage: controller-lab init go [DIR] [--dry-run]

Wires the Go project in DIR (default: the current folder, or the module it is in) to Controller Lab: kubebuilder's layout, or
any main that creates a controller-runtime manager. It says what it changed; run again, it changes
nothing (or refreshes controller-lab/go after Controller Lab was updated).

  controller-lab/go       a copy of Controller Lab's Go module; go.mod requires it with a replace
                          to that copy, then go mod tidy (Go modules are the only downloads)
  cmd/main.go             mgr = controllerlab.Wrap(mgr) after the manager is created
  *_test.go               suites that start an envtest.Environment start a simtest.Environment
  Makefile                \`make test\` without setup-envtest
  Dockerfile              the copy is there for go mod download (and .dockerignore lets it in)
  controller-lab/scenario.yaml   a starter scenario: config/crd/bases, config/rbac, config/samples
  .vscode/launch.json     debug configurations on the simulated cluster

options:
  --dry-run   say what would change; write nothing
`;

export async function main(argv: string[]): Promise<number> {
  let dir: string;
  let dryRun: boolean;
  try {
    const { values, positionals } = parseCommandLine(argv, { 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
    if (values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const [kind, target, ...extra] = positionals;
    if (kind !== 'go') throw new UsageError(kind === undefined ? 'say what to set up: init go [DIR]' : `unknown project kind "${kind}" (only go)`);
    if (extra.length) throw new UsageError(`one folder at most (got ${[target, ...extra].join(' ')})`);
    dir = target ?? '.';
    dryRun = values['dry-run'] === true;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`controller-lab init: ${err.message}\n\n${HELP}`);
    return 2;
  }
  try {
    const setup = await setUpGoProject({ dir, dryRun });
    const out = [
      ...(dryRun ? ['dry run: nothing was written; this is what would change'] : []),
      ...(setup.moduleDir === resolve(dir) ? [] : [`the Go module ${dir} is in: ${setup.moduleDir}`]),
      ...setupLines(setup.changes),
    ];
    out.push('', 'next:', ...setup.next.map((c) => `  ${c}`));
    process.stdout.write(`${out.join('\n')}\n`);
    return 0;
  } catch (err) {
    // A read-only folder, or a file where a folder belongs: the user's to fix, so said in words.
    const words = fileErrorInWords(err);
    const path = (err as NodeJS.ErrnoException).path;
    if (words && path) {
      process.stderr.write(`controller-lab init: cannot write ${path}: ${words}\n`);
      return 1;
    }
    if (!(err instanceof GoProjectSetupError)) throw err;
    process.stderr.write(`controller-lab init: ${err.message}\n`);
    return err.usage ? 2 : 1;
  }
}

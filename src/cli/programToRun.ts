import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { goProgramsFor, hasMainPackage } from '../runtime/index.ts';

// `controller-lab run internal/controller/frigate_controller.go`: a kubebuilder controller's file, or
// its folder, is a package `go build` cannot run. As F5 on that file in VS Code does, the program is
// the module's one main package that calls controllerlab.Wrap(mgr) (./cmd in kubebuilder's layout);
// with none, or several, the spec stays as given and its own error says what to name.

export interface ProgramToRun {
  /** What to run: the spec as given, or the program it stands for. */
  spec: string;
  /** Says which program runs, when it is not the one named. */
  note?: string;
}

export function programToRun(spec: string, cwd = process.cwd()): ProgramToRun {
  const path = resolve(cwd, spec);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return { spec }; // a package path, or nothing there: for the command to say
  }
  if (!isDir && !spec.endsWith('.go')) return { spec };
  const dir = isDir ? path : dirname(path);
  if (hasMainPackage(dir) || (isDir && hasMainPackage(join(dir, 'cmd'))) || !holdsGoFiles(dir)) return { spec };
  const choice = goProgramsFor(path);
  if (!('programs' in choice) || choice.programs.length !== 1) return { spec };
  const program = `./${relative(cwd, choice.programs[0]!.program)}`.replace(/^\.\/$/, '.').replace(/^\.\/\.\./, '..');
  return { spec: program, note: `${spec} is not a main package: running ${program}, the module's program that calls controllerlab.Wrap` };
}

function holdsGoFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((n) => n.endsWith('.go') && !n.endsWith('_test.go'));
  } catch {
    return false;
  }
}

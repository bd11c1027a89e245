import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { findGoModule, hasMainPackage } from './controllerTarget.ts';

// "Debug/Run the controller in the editor" for a Go file: a kubebuilder project's controller lives
// in internal/controller (package controller), which `go build` cannot run. The program to run is
// the module's main package that calls controllerlab.Wrap(mgr) — cmd/ in kubebuilder's layout — and
// the scenario is the one beside it or at the module's root (where Set Up This Go Project puts it).

export interface GoProgram {
  /** The main package's directory. */
  program: string;
  scenario?: string;
}

/** What to run for a Go file or folder, the candidates to choose from, or why there is none. */
export type GoProgramChoice = { programs: GoProgram[] } | { problem: string };

const SKIPPED_DIRS = new Set(['vendor', 'testdata', 'node_modules', 'bin', 'dist', 'out']);
const MAX_DIRS = 2000;

export function goProgramsFor(path: string): GoProgramChoice {
  const dir = isDirectory(path) ? path : dirname(path);
  const moduleDir = findGoModule(dir);
  if (hasMainPackage(dir)) return { programs: [withScenario(dir, moduleDir ?? dir)] };
  if (!moduleDir) return { problem: `${path} is in no Go module (no go.mod above it): open a controller-runtime program's main.go` };
  const mains = mainPackagesUnder(moduleDir);
  const wrapped = mains.filter(callsWrap);
  if (wrapped.length > 0) return { programs: wrapped.map((d) => withScenario(d, moduleDir)) };
  const what = `${relative(moduleDir, path) || path} is not a main package`;
  return mains.length === 0
    ? { problem: `${what}, and module ${moduleDir} has no main package to run` }
    : {
        problem:
          `${what}, and no main package of ${moduleDir} calls controllerlab.Wrap(mgr) (${mains.map((d) => relative(moduleDir, d) || '.').join(', ')}): ` +
          'run “Controller Lab: Set Up This Go Project” to add it',
      };
}

function withScenario(program: string, moduleDir: string): GoProgram {
  const scenario = [join(program, 'scenario.yaml'), join(moduleDir, 'scenario.yaml'), join(moduleDir, 'controller-lab', 'scenario.yaml')].find((f) => existsSync(f));
  return scenario ? { program, scenario } : { program };
}

/** Directories of the module holding a `package main`, nested modules and tool folders left out. */
function mainPackagesUnder(moduleDir: string): string[] {
  const found: string[] = [];
  const queue = [moduleDir];
  for (let seen = 0; queue.length > 0 && seen < MAX_DIRS; seen++) {
    const dir = queue.shift() as string;
    if (hasMainPackage(dir)) found.push(dir);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!e.isDirectory() || e.name.startsWith('.') || e.name.startsWith('_') || SKIPPED_DIRS.has(e.name)) continue;
      const sub = join(dir, e.name);
      if (!existsSync(join(sub, 'go.mod'))) queue.push(sub);
    }
  }
  return found;
}

function callsWrap(dir: string): boolean {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.go') && !n.endsWith('_test.go'))
    .some((n) => {
      try {
        return /controllerlab\.Wrap\s*\(/.test(readFileSync(join(dir, n), 'utf8'));
      } catch {
        return false;
      }
    });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

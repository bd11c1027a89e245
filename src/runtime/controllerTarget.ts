import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

// Which kind of controller a path names, decided once for the CLI, the debugger and the views: a
// Go controller-runtime program (a `.go` file, a directory holding `go.mod` or a `package main`, or
// a Go package path such as `example.com/op/cmd/manager`), or a TypeScript/JavaScript controller file.

export type ControllerTarget =
  | { language: 'typescript'; file: string }
  /** `packageDir`: what `go build` builds (a directory, or a package path); `moduleDir`: where it runs. */
  | { language: 'go'; packageDir: string; moduleDir: string; display: string };

/** `example.com/x/cmd`: a first element with a dot and no path separator of the file system in front. */
export function looksLikeGoPackagePath(spec: string): boolean {
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+(\/[A-Za-z0-9._~-]+)+$/i.test(spec) && !/\.([cm]?[jt]s|go)$/.test(spec);
}

export function controllerTarget(spec: string, cwd: string = process.cwd()): ControllerTarget {
  const path = resolve(cwd, spec);
  if (existsSync(path)) {
    const dir = statSync(path).isDirectory() ? path : spec.endsWith('.go') ? dirname(path) : undefined;
    if (dir && (spec.endsWith('.go') || isGoMainDirectory(dir))) {
      // A module root whose program lives in ./cmd (kubebuilder's layout): that is the program.
      const packageDir = !hasMainPackage(dir) && hasMainPackage(join(dir, 'cmd')) ? join(dir, 'cmd') : dir;
      return { language: 'go', packageDir, moduleDir: findGoModule(dir) ?? dir, display: spec };
    }
    return { language: 'typescript', file: path };
  }
  if (spec.endsWith('.go')) return { language: 'go', packageDir: dirname(path), moduleDir: findGoModule(dirname(path)) ?? cwd, display: spec };
  if (looksLikeGoPackagePath(spec)) return { language: 'go', packageDir: spec, moduleDir: findGoModule(cwd) ?? cwd, display: spec };
  return { language: 'typescript', file: path };
}

/**
 * Why a TypeScript target's path is no controller file, said before anything starts (undefined: it
 * is a file). A directory of Go files that is not a main package (a kubebuilder project's
 * internal/controller) is named as the Go package it is, not as a missing file.
 */
export function notAControllerFile(file: string): string | undefined {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    return `controller file not found: ${file}`;
  }
  if (stats.isFile()) return undefined;
  if (!stats.isDirectory()) return `not a controller file: ${file}`;
  const goPackage = goPackageName(file);
  return goPackage
    ? `${file} is Go package ${goPackage}, not a program: give the directory of the program's main package (package main, func main; ./cmd in kubebuilder's layout)`
    : `${file} is a directory: give a controller's .ts file, or a Go program's directory`;
}

/** The package the directory's Go files declare (the first one that says), if any. */
function goPackageName(dir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.go') && !n.endsWith('_test.go'));
  } catch {
    return undefined;
  }
  for (const n of names) {
    try {
      const name = /^\s*package\s+(\w+)/m.exec(readFileSync(join(dir, n), 'utf8'))?.[1];
      if (name) return name;
    } catch {
      // unreadable: the next file may say
    }
  }
  return undefined;
}

function isGoMainDirectory(dir: string): boolean {
  return existsSync(join(dir, 'go.mod')) || hasMainPackage(dir);
}

export function hasMainPackage(dir: string): boolean {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.go') && !n.endsWith('_test.go'));
  } catch {
    return false;
  }
  return names.some((n) => {
    try {
      return /^\s*package\s+main\b/m.test(readFileSync(join(dir, n), 'utf8'));
    } catch {
      return false;
    }
  });
}

/** The nearest directory at or above `dir` with a go.mod (the module `go build` runs in). */
export function findGoModule(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, 'go.mod'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/**
 * What messages call a program: its file's or directory's name, except kubebuilder's `cmd` (or the
 * `main.go` in it), which every such project has: that one is named by the directory above it
 * (`shop`, not `cmd`). A relative `./cmd` with nothing above it stays `cmd`.
 */
export function programName(program: string): string {
  let path = program.replace(/[\\/]+$/, '');
  if (/(^|[\\/])main\.go$/.test(path)) path = path.replace(/[\\/]?main\.go$/, '') || '.';
  const parts = path.split(/[\\/]+/).filter((p) => p && p !== '.');
  const last = parts.at(-1) ?? program;
  return last === 'cmd' && parts.length > 1 ? (parts.at(-2) as string) : last;
}

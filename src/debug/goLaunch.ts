import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { GoProgramOptions } from '../runtime/index.ts';
import { controllerTarget } from '../runtime/index.ts';

// The launch configuration of a Go controller-runtime program (vscode-go's names where they exist:
// program, args, env, cwd, buildFlags) and where its stack frames point: the Reconcile method.

export interface GoLaunchOptions {
  /** A Go main package: its directory (`${workspaceFolder}/cmd`), its main.go, or its package path. */
  program?: string;
  /** The program's command-line arguments. */
  args?: string[];
  /** Added to the program's environment. */
  env?: Record<string, string>;
  /** `go build` flags, as one string (`-tags=e2e -race`) or a list. */
  buildFlags?: string | string[];
  /** How long the program has to connect (controllerlab.Wrap). Default 30000. */
  connectTimeoutMs?: number;
}

/**
 * How a line debugger builds and starts the Go program (Delve's build flags, `dlv exec`): what the
 * launch path passes on to GoControllerProcess (its buildFlags and wrapCommand).
 */
export interface GoProgramOverrides {
  buildFlags?: string[];
  /** Added to the program's environment (after the launch configuration's `env`). */
  env?: Record<string, string>;
  wrapCommand?: (binary: string, args: string[]) => { command: string; args: string[] };
}

export function goProgramOptions(options: GoLaunchOptions): GoProgramOptions {
  const flags = typeof options.buildFlags === 'string' ? options.buildFlags.split(/\s+/).filter(Boolean) : options.buildFlags;
  return { args: options.args, env: options.env, buildFlags: flags, connectTimeoutMs: options.connectTimeoutMs };
}

/**
 * For a Go program: the file and line of the first `Reconcile(ctx …` method in its main package or,
 * when the reconciler lives elsewhere in the module (kubebuilder's internal/controller), in the
 * module's other packages; else the main package's first file. Undefined for a TypeScript controller.
 */
export function reconcileSource(spec: string, cwd: string): { path: string; line: number } | undefined {
  const target = controllerTarget(spec, cwd);
  if (target.language !== 'go') return undefined;
  const main = goFiles(target.packageDir);
  const found = findReconcile(main) ?? findReconcile(moduleGoFiles(target.moduleDir, target.packageDir));
  if (found) return found;
  return main[0] ? { path: main[0], line: 1 } : undefined;
}

function findReconcile(files: string[]): { path: string; line: number } | undefined {
  for (const path of files) {
    let lines: string[];
    try {
      lines = readFileSync(path, 'utf8').split('\n');
    } catch {
      continue;
    }
    const i = lines.findIndex((l) => /^func\s*\([^)]*\)\s*Reconcile\s*\(/.test(l));
    if (i >= 0) return { path, line: i + 1 };
  }
  return undefined;
}

/** A package directory's Go sources (tests left out), sorted. */
function goFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.go') && !n.endsWith('_test.go')).sort().map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/** The module's Go sources outside `skip`, nearest packages first; vendor, testdata, hidden and `_` directories are not Go's. */
function moduleGoFiles(moduleDir: string, skip: string, maxDirs = 500): string[] {
  const files: string[] = [];
  const queue = [moduleDir];
  for (let seen = 0; queue.length > 0 && seen < maxDirs; seen++) {
    const dir = queue.shift() as string;
    if (dir !== skip) files.push(...goFiles(dir));
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries.filter((d) => d.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      if (!/^[._]|^(vendor|testdata|node_modules)$/.test(e.name)) queue.push(join(dir, e.name));
    }
  }
  return files;
}

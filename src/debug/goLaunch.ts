import { readdirSync, readFileSync } from 'node:fs';
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

export function goProgramOptions(options: GoLaunchOptions): GoProgramOptions {
  const flags = typeof options.buildFlags === 'string' ? options.buildFlags.split(/\s+/).filter(Boolean) : options.buildFlags;
  return { args: options.args, env: options.env, buildFlags: flags, connectTimeoutMs: options.connectTimeoutMs };
}

/** For a Go program: the file and line of the first `Reconcile(ctx …` method in its package; else undefined. */
export function reconcileSource(spec: string, cwd: string): { path: string; line: number } | undefined {
  const target = controllerTarget(spec, cwd);
  if (target.language !== 'go') return undefined;
  let names: string[];
  try {
    names = readdirSync(target.packageDir).filter((n) => n.endsWith('.go') && !n.endsWith('_test.go')).sort();
  } catch {
    return undefined;
  }
  let first: string | undefined;
  for (const name of names) {
    const path = join(target.packageDir, name);
    first ??= path;
    const lines = readFileSync(path, 'utf8').split('\n');
    const i = lines.findIndex((l) => /^func\s*\([^)]*\)\s*Reconcile\s*\(/.test(l));
    if (i >= 0) return { path, line: i + 1 };
  }
  return first ? { path: first, line: 1 } : undefined;
}

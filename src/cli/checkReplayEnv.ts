import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { controllerTarget } from '../runtime/index.ts';
import { localRunEnv, MANAGER_MANIFEST } from '../setup/index.ts';

// A finding's replay command must run the program as the check ran it, and the check ran it with
// the whole environment it was given: `FOO=bar controller-lab check ./cmd …` reconciles with FOO=bar,
// and a replay without it may never reach the finding. The environment also holds everything the
// user's shell has (PATH, HOME, SSH_AUTH_SOCK, …), which any shell they replay in has too: the
// command carries only what the program can be seen to depend on, as it is set now:
// - what a local run of a kubebuilder project needs (`init go` says so: the manager Deployment's env);
// - the variables the program's own code reads (os.Getenv, os.LookupEnv, `env:"…"` and
//   `envconfig:"…"` struct tags in Go; process.env in a TypeScript controller's folder);
// - the variables that decide how Go builds and runs it (GOFLAGS, GODEBUG, …).

/** Set in every shell: a replay gets them from the shell it runs in. KUBECONFIG is the check's own. */
const SHELL_OWN = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'PWD', 'OLDPWD', 'TERM', 'LANG', 'LANGUAGE', 'TMPDIR', 'TZ', 'HOSTNAME', 'SHLVL', '_', 'KUBECONFIG']);

/** What Go builds (flags, tags, workspace, cgo) and how its runtime runs the program. */
const GO_BUILD_AND_RUNTIME = ['GOFLAGS', 'GOWORK', 'CGO_ENABLED', 'GOEXPERIMENT', 'GODEBUG', 'GOGC', 'GOMEMLIMIT', 'GOMAXPROCS', 'GOTRACEBACK'];

/** Folders beside a TypeScript controller that hold no source of it. */
const NOT_SCRIPT_SOURCE = new Set(['node_modules', 'dist', 'out', 'build', 'coverage']);

/** Folders of a Go module that are not the program's own code. */
const NOT_OWN_CODE = new Set(['vendor', 'testdata', 'node_modules', 'bin', 'controller-lab']);

/** The variables, with their values now, that a replay of a check of `program` sets again. */
export function replayEnv(program: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Record<string, string> {
  const target = controllerTarget(program, cwd);
  const needed = new Set<string>();
  if (target.language === 'go') {
    for (const k of Object.keys(localRunEnv(read(join(target.moduleDir, MANAGER_MANIFEST)) || undefined))) needed.add(k);
    for (const f of goFiles(target.moduleDir, true)) for (const k of goVariablesRead(read(f))) needed.add(k);
    for (const k of GO_BUILD_AND_RUNTIME) needed.add(k);
  } else {
    for (const f of scriptFiles(dirname(target.file))) for (const k of scriptVariablesRead(read(f))) needed.add(k);
  }
  return Object.fromEntries(
    [...needed]
      .filter((k) => !SHELL_OWN.has(k) && !k.startsWith('LC_') && !k.startsWith('CONTROLLER_LAB_') && env[k] !== undefined)
      .sort()
      .map((k) => [k, env[k] as string]),
  );
}

/** Names a Go file reads from its environment, where they are written out. */
export function goVariablesRead(text: string): string[] {
  const calls = [...text.matchAll(/\bos\.(?:Getenv|LookupEnv)\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] as string);
  // Struct tags of the common env decoders (caarlos0/env, kelseyhightower/envconfig, sethvargo/go-envconfig).
  const tags = [...text.matchAll(/\b(?:env|envconfig)\s*:\s*\\?"([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
  return [...calls, ...tags];
}

/** Names a script reads from process.env. */
export function scriptVariablesRead(text: string): string[] {
  return [...text.matchAll(/\bprocess\.env(?:\.([A-Za-z_$][\w$]*)|\[\s*['"]([^'"]+)['"]\s*\])/g)].map((m) => (m[1] ?? m[2]) as string);
}

function goFiles(dir: string, recursive: boolean): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // a package path: no folder to read here
  }
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return recursive && !e.name.startsWith('.') && !NOT_OWN_CODE.has(e.name) ? goFiles(path, true) : [];
    return e.isFile() && e.name.endsWith('.go') && !e.name.endsWith('_test.go') ? [path] : [];
  });
}

/** The controller's folder and three levels under it: a controller is a file and the modules it imports. */
function scriptFiles(dir: string, depth = 0): string[] {
  if (depth > 3) return [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return !e.name.startsWith('.') && !NOT_SCRIPT_SOURCE.has(e.name) ? scriptFiles(path, depth + 1) : [];
    return e.isFile() && /\.[cm]?[jt]s$/.test(e.name) && !/\.(test|spec)\.[cm]?[jt]s$/.test(e.name) ? [path] : [];
  });
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

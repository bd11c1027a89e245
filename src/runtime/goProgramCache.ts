import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { trimProgramCache } from './goProgramCacheTrim.ts';

// Where a Go program is built: one file per program and build flags that stays between runs.
// `go build -o FILE` leaves a FILE whose build ID is current alone, so the second run of an
// unchanged kubebuilder manager links nothing (0.5 s of CPU) instead of linking it again into a
// new temporary folder (4 s of CPU, tens of seconds on a busy machine).

export interface GoProgramKey {
  /** The main package, as go build is given it. */
  packageDir: string;
  /** The module directory go build runs in. */
  moduleDir?: string;
  buildFlags?: string[];
  goBinary?: string;
}

/**
 * `$XDG_CACHE_HOME/controller-lab/go-programs/<hash>/controller` (else under ~/.cache), its folders
 * made one level at a time, private to the user; undefined when that cannot be done (no home).
 * The programs used least recently go past the cache's limits (goProgramCacheTrim.ts).
 */
export function cachedProgramPath(key: GoProgramKey, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const id = createHash('sha256')
    .update(JSON.stringify([resolve(key.moduleDir ?? key.packageDir), key.packageDir, key.buildFlags ?? [], key.goBinary ?? 'go']))
    .digest('hex')
    .slice(0, 20);
  const xdg = env.XDG_CACHE_HOME;
  let dir = xdg || env.HOME || homedir();
  // An XDG_CACHE_HOME not made yet is made, as Go makes its own cache there (else every run would link again).
  if (xdg) {
    try {
      mkdirSync(xdg, { recursive: true, mode: 0o700 });
    } catch {
      return undefined;
    }
  }
  for (const part of [...(xdg ? [] : ['.cache']), 'controller-lab', 'go-programs', id]) {
    dir = join(dir, part);
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
  }
  // A program is run from here: only from a folder of the user's own.
  try {
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) return undefined;
  } catch {
    return undefined;
  }
  trimProgramCache(dirname(dir), id);
  return join(dir, 'controller');
}

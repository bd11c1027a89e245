import { readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

// go-programs/ keeps one built program per module, main package and build flags: a kubebuilder
// manager is 60–90 MB, and every project, `-N -l` debug build and temporary checkout adds one, so
// unbounded it grows by gigabytes. As Go trims its own build cache by last use, the programs used
// least recently go once the folder holds more than a few of them or too many bytes; one used in the
// last minutes stays whatever the limits (another run may be building or starting it right now).

export interface ProgramCacheLimits {
  /** Programs kept at most (the one being used counts). */
  maxPrograms: number;
  /** Bytes kept at most, summed over the programs' files. */
  maxBytes: number;
  /** A program used this recently is never removed. */
  inUseMs: number;
}

export const PROGRAM_CACHE_LIMITS: ProgramCacheLimits = { maxPrograms: 16, maxBytes: 2 * 1024 ** 3, inUseMs: 10 * 60_000 };

/** The folder names cachedProgramPath makes: nothing else under go-programs/ is touched. */
const ENTRY_NAME = /^[0-9a-f]{20}$/;

interface Entry {
  name: string;
  usedMs: number;
  bytes: number;
}

function entryOf(root: string, name: string): Entry | undefined {
  try {
    const dir = join(root, name);
    const stat = statSync(dir);
    if (!stat.isDirectory()) return undefined;
    let bytes = 0;
    for (const file of readdirSync(dir)) {
      try {
        bytes += statSync(join(dir, file)).size;
      } catch {
        // Gone meanwhile (another run trimming): counts for nothing.
      }
    }
    return { name, usedMs: stat.mtimeMs, bytes };
  } catch {
    return undefined;
  }
}

/** Marks `entry` (a folder under `root`) as used now, then removes the least recently used past the limits. */
export function trimProgramCache(root: string, entry: string, limits: ProgramCacheLimits = PROGRAM_CACHE_LIMITS, nowMs = Date.now()): void {
  try {
    const now = new Date(nowMs);
    utimesSync(join(root, entry), now, now);
  } catch {
    return;
  }
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => ENTRY_NAME.test(n));
  } catch {
    return;
  }
  const entries = names
    .map((n) => entryOf(root, n))
    .filter((e): e is Entry => e !== undefined)
    .sort((a, b) => (a.name === entry ? -1 : b.name === entry ? 1 : b.usedMs - a.usedMs));
  let kept = 0;
  let bytes = 0;
  let full = false;
  for (const e of entries) {
    full ||= kept >= limits.maxPrograms || bytes + e.bytes > limits.maxBytes;
    if (!full || e.name === entry || nowMs - e.usedMs < limits.inUseMs) {
      kept++;
      bytes += e.bytes;
      continue;
    }
    try {
      rmSync(join(root, e.name), { recursive: true, force: true });
    } catch {
      // Not ours to remove after all (another user's permissions): left as it is.
    }
  }
}

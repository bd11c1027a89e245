import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

// Files a command writes for the user (--trace, --json, --kubeconfig-out): checked before the work
// starts, so a typo in a folder name costs a second, not a whole run whose result is then lost;
// and, when a write fails anyway, said in words rather than as Node's errno line.

/** Why `path` cannot be written, in words; undefined when it can (as far as can be told up front). */
export function unwritableReason(path: string): string | undefined {
  const absolute = resolve(path);
  const existing = statOrUndefined(absolute);
  if (existing?.isDirectory()) return 'it is a folder';
  if (existing) return canWrite(absolute) ? undefined : 'permission denied';
  const folder = dirname(absolute);
  const parent = statOrUndefined(folder);
  if (!parent) return `the folder ${folder} does not exist`;
  if (!parent.isDirectory()) return `${folder} is a file, not a folder`;
  return canWrite(folder) ? undefined : `permission denied in ${folder}`;
}

/** A failed write's errno in words (undefined: not a file system error worth wording). */
export function fileErrorInWords(err: unknown): string | undefined {
  switch ((err as NodeJS.ErrnoException | undefined)?.code) {
    case 'ENOENT': return 'its folder does not exist';
    case 'EISDIR': return 'it is a folder';
    case 'ENOTDIR': return 'part of the path is a file, not a folder';
    case 'EEXIST': return 'a file is in the way of a folder';
    case 'EACCES':
    case 'EPERM': return 'permission denied';
    case 'EROFS': return 'the file system is read-only';
    case 'ENOSPC': return 'no space left on the device';
    case 'EDQUOT': return 'the disk quota is used up';
    default: return undefined;
  }
}

function statOrUndefined(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

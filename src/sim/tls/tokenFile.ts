// With a state dir the bearer token is kept there (0600), like the CA: a kubeconfig written by one
// run, and a client holding it, keep working after a restart (a crash included).
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { missingWhile } from './keptFiles.ts';
import { writePrivateFile } from './kubeconfig.ts';

export const TOKEN_FILE = 'token';
/** Made after the token (startSimServer): there, it says a token was made too. */
const MADE_AFTER = ['ca.crt', 'ca.key'];

/** A fresh server token: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface KeptToken {
  token: string;
  /** Why a kept token was replaced (its loss accepted), for the start to say; undefined when none was. */
  loss?: string;
  /** Made by this start (none was kept): no witness that a CA made after it was ever there. */
  made?: true;
}

/**
 * A kept token that is not one, or none where the CA made after it is, stops the start (a new one would lock out every kubeconfig written
 * before; the line ends with `refusalEnd`), unless `acceptLoss`: then it is replaced and `loss`
 * says what was lost.
 */
export async function loadOrCreateToken(stateDir: string, acceptLoss = false, refusalEnd = ''): Promise<KeptToken> {
  const file = join(stateDir, TOKEN_FILE);
  let kept: string | undefined;
  try {
    kept = (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { cause: err });
  }
  if (kept !== undefined && /^[A-Za-z0-9_-]{16,}$/.test(kept)) {
    await chmod(file, 0o600);
    return { token: kept };
  }
  const lost = 'the kubeconfigs written before would no longer be let in';
  const missing = kept === undefined ? await missingWhile(file, MADE_AFTER.map((f) => join(stateDir, f))) : undefined;
  const problem = kept !== undefined ? `${file}: not a bearer token, damaged: ${lost}` : missing ? `${missing}: ${lost}` : undefined;
  if (problem && !acceptLoss) throw new Error(`${problem}${refusalEnd}`);
  const token = newToken();
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  // Whole or not at all: a crash never leaves a half-written token to refuse the next start.
  await writePrivateFile(`${file}.tmp`, `${token}\n`);
  await rename(`${file}.tmp`, file);
  return { token, made: true, ...(problem ? { loss: problem } : {}) };
}

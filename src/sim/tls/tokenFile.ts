// With a state dir the bearer token is kept there (0600), like the CA: a kubeconfig written by one
// run, and a client holding it, keep working after a restart (a crash included).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFile } from './kubeconfig.ts';

const TOKEN_FILE = 'token';

/** A fresh server token: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function loadOrCreateToken(stateDir: string): Promise<string> {
  const file = join(stateDir, TOKEN_FILE);
  try {
    const kept = (await readFile(file, 'utf8')).trim();
    if (/^[A-Za-z0-9_-]{16,}$/.test(kept)) {
      await writePrivateFile(file, `${kept}\n`);
      return kept;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { cause: err });
  }
  const token = newToken();
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writePrivateFile(file, `${token}\n`);
  return token;
}

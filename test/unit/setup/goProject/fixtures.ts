import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The files of a kubebuilder v4.16 scaffold (fixtures/kubebuilder-v4.16/README.md says how they were made).

export const SCAFFOLD = fileURLToPath(new URL('./fixtures/kubebuilder-v4.16/', import.meta.url));

export function scaffoldFile(path: string): string {
  return readFileSync(join(SCAFFOLD, path), 'utf8');
}

/** A copy of the scaffold's files in a temporary folder, removed when the test ends. */
export function scaffoldCopy(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'init-go-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(SCAFFOLD, dir, { recursive: true, filter: (src) => !src.endsWith('README.md') });
  return dir;
}
